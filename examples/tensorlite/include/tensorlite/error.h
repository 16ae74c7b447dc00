// Exception types thrown by tensorlite: callers catch by category, not by message.
#pragma once

#include <stdexcept>
#include <string>

namespace tensorlite {

// Base of every error tensorlite throws on bad input.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Shapes that cannot be combined (broadcasting, matmul inner dims, reshape sizes...).
class ShapeError : public Error {
 public:
  using Error::Error;
};

// An operation asked of a dtype that cannot do it (e.g. log of an integer tensor).
class DTypeError : public Error {
 public:
  using Error::Error;
};

// Any other invalid argument: out-of-range axis or index, bad hyper-parameter, class id...
class ArgumentError : public Error {
 public:
  using Error::Error;
};

}  // namespace tensorlite
