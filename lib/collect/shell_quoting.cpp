// Quoting of substituted values in /bin/sh command lines (include/dlfl/collect/shell_quoting.h).
#include "dlfl/collect/shell_quoting.h"

#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

// Inside single quotes nothing is special but the closing quote: close, escape, reopen.
void append_single_quoted_body(std::string& out, std::string_view value) {
  for (const char c : value) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
}

}  // namespace

void ShellQuoteTracker::feed(char c) noexcept {
  if (escaped_) {
    escaped_ = false;
    return;
  }
  switch (state_) {
    case ShellQuoting::none:
      if (c == '\\') escaped_ = true;
      else if (c == '\'') state_ = ShellQuoting::single;
      else if (c == '"') state_ = ShellQuoting::double_;
      break;
    case ShellQuoting::single:
      if (c == '\'') state_ = ShellQuoting::none;
      break;
    case ShellQuoting::double_:
      if (c == '\\') escaped_ = true;
      else if (c == '"') state_ = ShellQuoting::none;
      break;
  }
}

std::string quote_for_shell(std::string_view value, const ShellQuoteTracker& where, std::string_view placeholder) {
  if (where.escaped())
    throw Error("the placeholder " + std::string(placeholder) +
                " follows a backslash; remove the backslash (dlfl quotes substituted values itself)");
  std::string out;
  out.reserve(value.size() + 2);
  switch (where.state()) {
    case ShellQuoting::none:
      out += '\'';
      append_single_quoted_body(out, value);
      out += '\'';
      break;
    case ShellQuoting::single: append_single_quoted_body(out, value); break;
    case ShellQuoting::double_:
      for (const char c : value) {
        if (c == '$' || c == '`' || c == '"' || c == '\\') out += '\\';
        out += c;
      }
      break;
  }
  return out;
}

std::string shell_quote(std::string_view text) {
  std::string out = "'";
  append_single_quoted_body(out, text);
  return out + "'";
}

}  // namespace dlfl::collect
