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

void check_placeholder_place(const ShellQuoteTracker& where, std::string_view placeholder) {
  if (where.escaped())
    throw Error("the placeholder " + std::string(placeholder) +
                " follows a backslash; remove the backslash (dlfl quotes substituted values itself)");
  if (where.after_dollar())
    throw Error("the placeholder " + std::string(placeholder) +
                " follows a '$', which would make the value's first character an expansion ($(, ${, $1); "
                "remove the '$' or put a space between");
  if (where.in_arithmetic())
    throw Error("the placeholder " + std::string(placeholder) +
                " stands inside $((...)), where the shell evaluates text as arithmetic; use it outside");
  if (where.too_deep_for_placeholder())
    throw Error("the placeholder " + std::string(placeholder) + " stands more than " +
                std::to_string(ShellQuoteTracker::kMaxDepth - 2) + " quotes or substitutions deep");
}

}  // namespace

void ShellQuoteTracker::push(Level level) noexcept {
  if (overflow_ > 0 || depth_ == kMaxDepth) ++overflow_;
  else levels_[depth_++] = level;
}

void ShellQuoteTracker::pop() noexcept {
  if (overflow_ > 0) --overflow_;
  else if (depth_ > 0) --depth_;
}

bool ShellQuoteTracker::parameter_quoted() const noexcept {
  for (int i = depth_ - 1; i >= 0; --i)
    if (levels_[i] == Level::parameter) return i > 0 && levels_[i - 1] == Level::double_;
  return false;
}

ShellQuoting ShellQuoteTracker::state() const noexcept {
  switch (top()) {
    case Level::single: return ShellQuoting::single;
    case Level::double_: return ShellQuoting::double_;
    case Level::parameter: return parameter_quoted() ? ShellQuoting::double_ : ShellQuoting::none;
    default: return ShellQuoting::none;
  }
}

bool ShellQuoteTracker::in_backquotes_or_parameter() const noexcept {
  for (int i = 0; i < depth_; ++i)
    if (levels_[i] == Level::backquote || levels_[i] == Level::parameter) return true;
  return false;
}

bool ShellQuoteTracker::in_arithmetic() const noexcept {
  for (int i = 0; i < depth_; ++i)
    if (levels_[i] == Level::arithmetic) return true;
  return false;
}

void ShellQuoteTracker::feed(char c) noexcept {
  const bool dollar = dollar_, opened = just_opened_, closing = arithmetic_closing_;
  dollar_ = just_opened_ = arithmetic_closing_ = false;
  if (escaped_) {
    escaped_ = false;
    return;
  }
  const Level level = top();
  if (level == Level::single) {
    if (c == '\'') pop();
    return;
  }
  // What opens a level the same way in every other one: escapes, `$(`, `${`, backquotes.
  if (c == '\\') {
    escaped_ = true;
    return;
  }
  if (c == '$') {
    dollar_ = true;
    return;
  }
  if (dollar && c == '{') {
    push(Level::parameter);
    return;
  }
  if (dollar && c == '(') {
    push(Level::substitution);
    just_opened_ = true;
    return;
  }
  if (c == '`') {
    if (level == Level::backquote) pop();
    else push(Level::backquote);
    return;
  }
  if (level == Level::double_) {
    if (c == '"') pop();
    return;
  }
  // Unquoted levels: the command, (...), $(...), `...`, ${...}, $((...)).
  if (c == '"') {
    push(Level::double_);
  } else if (c == '\'') {
    // In `"${x:-'a'}"` the single quotes are plain characters.
    if (level != Level::parameter || !parameter_quoted()) push(Level::single);
  } else if (c == '(') {
    if (opened && level == Level::substitution) levels_[depth_ - 1] = Level::arithmetic;  // `$((`
    else push(Level::parens);
  } else if (c == ')') {
    if (level == Level::arithmetic) {
      if (closing) pop();  // `))` ends $((...))
      else arithmetic_closing_ = true;
    } else if (level == Level::parens || level == Level::substitution) {
      pop();
    }
  } else if (c == '}') {
    if (level == Level::parameter) pop();
  }
}

std::string quote_for_shell(std::string_view value, const ShellQuoteTracker& where, std::string_view placeholder) {
  check_placeholder_place(where, placeholder);
  if (where.in_backquotes_or_parameter())
    throw Error("the placeholder " + std::string(placeholder) +
                " stands inside backquotes or ${...}, where no quoting keeps a path whole; use $(...) instead");
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

std::string reference_for_shell(std::string_view variable, const ShellQuoteTracker& where,
                                std::string_view placeholder) {
  check_placeholder_place(where, placeholder);
  const std::string expansion = "${" + std::string(variable) + "}";
  switch (where.state()) {
    case ShellQuoting::none: return '"' + expansion + '"';
    case ShellQuoting::single: return "'\"" + expansion + "\"'";
    case ShellQuoting::double_: return expansion;
  }
  return '"' + expansion + '"';
}

std::string shell_quote(std::string_view text) {
  std::string out = "'";
  append_single_quoted_body(out, text);
  return out + "'";
}

}  // namespace dlfl::collect
