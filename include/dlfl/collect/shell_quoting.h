// Values substituted into /bin/sh command lines (test command templates, build recipes)
// so that they stay one word and never become code, whatever quotes or substitutions
// surround them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dlfl::collect {

// The quoting in force at a point of a /bin/sh command line (POSIX sh, 2.2 Quoting).
enum class ShellQuoting { none, single, double_ };

// Follows /bin/sh quoting while a command line is read left to right: `'...'`, `"..."`,
// backslash escapes outside single quotes, and the substitutions that open a new level of
// quoting inside a word (POSIX sh 2.6.3 and 2.6.4): `$(...)`, backquotes, `${...}` and
// `$((...))`. state() is the quoting of the innermost level, so in `"$(prog {})"` the
// placeholder stands unquoted. Case patterns (`a)` without `(`) close a `$(` early; a
// value placed there may then be split into words, never read as code (see
// reference_for_shell).
class ShellQuoteTracker {
 public:
  void feed(char c) noexcept;
  void feed(std::string_view text) noexcept {
    for (const char c : text) feed(c);
  }
  ShellQuoting state() const noexcept;
  // True right after a backslash that escapes the next character.
  bool escaped() const noexcept { return escaped_; }
  // Right after an unescaped `$` outside single quotes: what follows would be read
  // together with it as an expansion.
  bool after_dollar() const noexcept { return dollar_; }
  // Inside `$((...))`: the shell evaluates the text as arithmetic, where an expanded
  // `a[$(cmd)]` runs cmd in bash; no placeholder may stand there.
  bool in_arithmetic() const noexcept;
  // Inside backquotes or `${...}`, where a backquote or a `}` ends the level even inside
  // single quotes: only a variable reference is safe there (reference_for_shell).
  bool in_backquotes_or_parameter() const noexcept;
  // Deeper than kMaxDepth levels: state() can no longer be trusted.
  bool too_deep() const noexcept { return overflow_ > 0; }
  // Too deep for a placeholder: what is put in its place may open two levels itself
  // (`"${V}"`), which must still be followed.
  bool too_deep_for_placeholder() const noexcept { return overflow_ > 0 || depth_ > kMaxDepth - 2; }

  static constexpr int kMaxDepth = 64;

 private:
  enum class Level : std::uint8_t { command, parens, substitution, backquote, parameter, arithmetic, single, double_ };
  void push(Level level) noexcept;
  void pop() noexcept;
  Level top() const noexcept { return depth_ ? levels_[depth_ - 1] : Level::command; }
  // Whether the level below the innermost `${` is double-quoted: `"${x:-{}}"` is.
  bool parameter_quoted() const noexcept;

  Level levels_[kMaxDepth] = {};
  int depth_ = 0;
  int overflow_ = 0;  // levels pushed past kMaxDepth and not yet popped
  bool escaped_ = false;
  bool dollar_ = false;       // the last character was an unescaped '$'
  bool just_opened_ = false;  // the last characters were "$(": one more '(' makes it $((
  bool arithmetic_closing_ = false;  // a ')' inside $((...)): one more closes it
};

// `value` written so that, placed where the tracker stands, the shell reads exactly
// `value` as (part of) one word: unquoted it is single-quoted (`'it'\''s'`), inside
// single quotes each `'` closes, escapes and reopens (`it'\''s`), inside double quotes
// `$`, `` ` ``, `"` and `\` get a backslash. For values dlfl chooses or has checked (paths
// under the user's -o, manifest names of the strict shape): the value is shell text, so a
// value from the code base goes through reference_for_shell instead. Throws dlfl::Error
// right after an escaping backslash (`prog \{}`) or a `$` (`$ {}` is fine), inside `$((...))`, backquotes or
// `${...}`, or past the tracker's depth; `placeholder` names it.
std::string quote_for_shell(std::string_view value, const ShellQuoteTracker& where,
                            std::string_view placeholder);

// The shell text that expands the environment variable `variable` to exactly its value as
// (part of) one word where the tracker stands: `"${V}"` unquoted, `${V}` inside double
// quotes, `'"${V}"'` inside single quotes (close, expand, reopen). The value itself never
// appears in the command line, so the shell never parses it: whatever it holds (`;`,
// quotes, `$(...)`, backquotes, newlines) it cannot run code, in any context the tracker
// gets right or wrong (a wrong guess can only split it into words). Throws dlfl::Error
// as quote_for_shell does.
std::string reference_for_shell(std::string_view variable, const ShellQuoteTracker& where,
                                std::string_view placeholder);

// `'text'` with each `'` written as `'\''`: one word wherever the shell reads it unquoted.
std::string shell_quote(std::string_view text);

}  // namespace dlfl::collect
