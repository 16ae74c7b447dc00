// Helpers shared by the tests: one-line parsing and evaluation, and capturing a thrown error
// to check its message and location.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "confeval/confeval.h"

namespace cetest {

using confeval::Config;
using confeval::Value;

// The value of `expression` evaluated as the only key of a config.
inline Value eval(std::string_view expression) {
  return confeval::parse_config("x = " + std::string(expression)).at("x");
}

// Runs `body`, which must throw an E, and returns the exception (a default one, with a test
// failure recorded, when it does not throw).
template <typename E, typename F>
E capture(F&& body) {
  try {
    body();
  } catch (const E& error) {
    return error;
  }
  ADD_FAILURE() << "expected an exception";
  return E("(nothing thrown)", {});
}

// "line:column" of a location, for compact assertions.
inline std::string position(const confeval::SourceLocation& where) {
  return std::to_string(where.line) + ":" + std::to_string(where.column);
}

}  // namespace cetest
