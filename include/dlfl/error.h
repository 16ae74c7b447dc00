// Error: the one exception type dlfl's libraries throw for bad input.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace dlfl {

// Thrown for malformed or inconsistent input. what() is a complete one-line message,
// "FILE:LINE: what" when a file (and line) is known, "FILE: what" or "what" otherwise;
// callers print it as is. Column is 1-based (0 = unknown), for formula expressions.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
  Error(const std::string& file, std::size_t line, const std::string& message)
      : std::runtime_error(locate(file, line) + message), file_(file), line_(line) {}

  const std::string& file() const noexcept { return file_; }
  std::size_t line() const noexcept { return line_; }

 private:
  static std::string locate(const std::string& file, std::size_t line) {
    if (file.empty()) return {};
    return line ? file + ":" + std::to_string(line) + ": " : file + ": ";
  }
  std::string file_;
  std::size_t line_ = 0;
};

}  // namespace dlfl
