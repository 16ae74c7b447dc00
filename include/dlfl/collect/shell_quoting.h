// Values substituted into /bin/sh command lines (test command templates, build recipes)
// so that they stay one word and never become code, whatever quotes surround them.
#pragma once

#include <string>
#include <string_view>

namespace dlfl::collect {

// The quoting in force at a point of a /bin/sh command line (POSIX sh, 2.2 Quoting).
enum class ShellQuoting { none, single, double_ };

// Follows /bin/sh quoting while a command line is read left to right: `'...'`, `"..."`
// and backslash escapes outside single quotes. Command substitutions are not followed
// (a placeholder inside `$(...)` is treated as the text around it is).
class ShellQuoteTracker {
 public:
  void feed(char c) noexcept;
  void feed(std::string_view text) noexcept {
    for (const char c : text) feed(c);
  }
  ShellQuoting state() const noexcept { return state_; }
  // True right after a backslash that escapes the next character.
  bool escaped() const noexcept { return escaped_; }

 private:
  ShellQuoting state_ = ShellQuoting::none;
  bool escaped_ = false;
};

// `value` written so that, placed where the tracker stands, the shell reads exactly
// `value` as (part of) one word: unquoted it is single-quoted (`'it'\''s'`), inside
// single quotes each `'` closes, escapes and reopens (`it'\''s`), inside double quotes
// `$`, `` ` ``, `"` and `\` get a backslash. So `prog {}`, `prog '{}'` and `prog "{}"`
// all pass the value as it is. Throws dlfl::Error right after an escaping backslash
// (`prog \{}`), where no quoting can make the value harmless; `placeholder` names it.
std::string quote_for_shell(std::string_view value, const ShellQuoteTracker& where,
                            std::string_view placeholder);

// `'text'` with each `'` written as `'\''`: one word wherever the shell reads it unquoted.
std::string shell_quote(std::string_view text);

}  // namespace dlfl::collect
