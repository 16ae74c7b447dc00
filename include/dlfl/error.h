// Error: the one exception type dlfl's libraries throw for bad input.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dlfl {

// Thrown for malformed or inconsistent input. what() is a complete one-line message,
// "FILE:LINE: what" when a file (and line) is known, "FILE: what" or "what" otherwise;
// callers print it as is. Column is 1-based (0 = unknown), for formula expressions.
// message() is the whole message; what() stops at the first NUL byte a message may hold
// (an echoed input), so printing uses message().
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message), message_(message) {}
  Error(const std::string& file, std::size_t line, const std::string& message)
      : Error(locate(file, line) + message, file, line) {}

  const std::string& message() const noexcept { return message_; }
  const std::string& file() const noexcept { return file_; }
  std::size_t line() const noexcept { return line_; }

 private:
  Error(const std::string& whole, const std::string& file, std::size_t line)
      : std::runtime_error(whole), message_(whole), file_(file), line_(line) {}
  static std::string locate(const std::string& file, std::size_t line) {
    if (file.empty()) return {};
    return line ? file + ":" + std::to_string(line) + ": " : file + ": ";
  }
  std::string message_;
  std::string file_;
  std::size_t line_ = 0;
};

// A user-given value as an error message echoes it: whole when short, else its first
// `max_bytes` bytes (never splitting a UTF-8 sequence) and "...", so that a 100 KB
// argument or a corrupt megabyte-long field does not become a 100 KB error line.
inline std::string excerpt(std::string_view text, std::size_t max_bytes = 60) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

}  // namespace dlfl
