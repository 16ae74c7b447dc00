// Exception types thrown by confeval: callers catch by category, every one carries the
// source position it is about so a message can point at the offending character.
#pragma once

#include <stdexcept>
#include <string>

#include "confeval/diagnostic.h"
#include "confeval/source_location.h"

namespace confeval {

// Base of every error confeval throws on bad input. what() is "file:line:column: message".
class Error : public std::runtime_error {
 public:
  Error(std::string message, SourceLocation where);

  const std::string& message() const { return message_; }
  const SourceLocation& where() const { return where_; }
  Diagnostic diagnostic() const { return {where_, message_, {}}; }

 private:
  std::string message_;
  SourceLocation where_;
};

// The text is not well-formed: a bad character, literal, token order or escape.
class SyntaxError : public Error {
 public:
  using Error::Error;
};

// A well-formed expression cannot be evaluated: type mismatch, unknown key, reference
// cycle, division by zero, overflow, bad builtin call, duplicate key.
class EvalError : public Error {
 public:
  using Error::Error;
};

// An @include cannot be followed: missing file, include cycle, nesting too deep.
class IncludeError : public Error {
 public:
  using Error::Error;
};

// A C++ caller asked a Config for a key it lacks or with the wrong type.
class AccessError : public Error {
 public:
  using Error::Error;
};

}  // namespace confeval
