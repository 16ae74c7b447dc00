// Signatures and test definitions found in source lines (see source_excerpts.h).
#include "source_excerpts.h"

#include <algorithm>
#include <cctype>

namespace dlfl::io::detail {
namespace {

constexpr std::uint32_t kSignatureSearch = 400;
constexpr std::size_t kSignatureLines = 6;

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::size_t indentation(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

// `ns::C::f(int) const` -> `f`, `tl::max<float>` -> `max`, `Module.method` (Python) ->
// `method`; operators keep their symbol (`operator+`).
std::string short_name(std::string_view function, bool python) {
  std::string_view name = function;
  const auto op = name.find("operator");
  const auto paren = name.find('(', op == std::string_view::npos ? 0 : op + 10);
  if (paren != std::string_view::npos) name = name.substr(0, paren);
  name = trim(name);
  if (!name.empty() && name.back() == '>' && name.find("operator") == std::string_view::npos) {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      depth += name[i] == '>' ? 1 : name[i] == '<' ? -1 : 0;
      if (depth == 0) {
        name = name.substr(0, i);
        break;
      }
    }
  }
  if (const auto colon = name.rfind("::"); colon != std::string_view::npos) name = name.substr(colon + 2);
  if (python)
    if (const auto dot = name.rfind('.'); dot != std::string_view::npos) name = name.substr(dot + 1);
  // A return type written into the name (`int f`) or a Python `<lambda>`: the last word.
  if (const auto space = name.rfind(' '); space != std::string_view::npos && name.find("operator") == std::string_view::npos)
    name = name.substr(space + 1);
  return std::string(name);
}

// The column where `name` appears in `line` as a whole word followed by `(`, or npos.
std::size_t call_like(std::string_view line, std::string_view name) {
  for (std::size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if (at > 0 && word_char(line[at - 1]) && word_char(name.front())) continue;
    if (end < line.size() && word_char(line[end]) && word_char(name.back())) continue;
    std::size_t next = end;
    while (next < line.size() && std::isspace(static_cast<unsigned char>(line[next]))) ++next;
    if (next == line.size() || line[next] == '(') return at;
  }
  return std::string_view::npos;
}

// True when the text from (row, column) reaches a `{` before a `;` within a few lines: a
// definition, not a call or a declaration.
bool opens_body(const std::vector<std::string>& lines, std::size_t row, std::size_t column) {
  for (std::size_t r = row; r < lines.size() && r < row + 12; ++r) {
    const std::string_view text = std::string_view(lines[r]).substr(r == row ? column : 0);
    const auto brace = text.find('{'), semicolon = text.find(';');
    if (brace != std::string_view::npos && (semicolon == std::string_view::npos || brace < semicolon)) return true;
    if (semicolon != std::string_view::npos) return false;
  }
  return false;
}

// A line above a signature that belongs to it: a return type or a template header.
bool signature_prefix(std::string_view line) {
  line = trim(line);
  if (line.empty() || line.front() == '#' || line.starts_with("//") || line.starts_with("/*") ||
      line.starts_with("*"))
    return false;
  const char last = line.back();
  return last != ';' && last != '{' && last != '}' && last != ')' && last != ':' && last != ',';
}

bool python_def(std::string_view line, std::string_view name) {
  line = trim(line);
  if (line.starts_with("async ")) line = trim(line.substr(6));
  if (!line.starts_with("def ")) return false;
  line = trim(line.substr(4));
  return line.starts_with(name) && trim(line.substr(name.size())).starts_with("(");
}

// Lines `first`..`last` (0-based) joined with '\n'.
std::string join(const std::vector<std::string>& lines, std::size_t first, std::size_t last) {
  std::string text;
  for (std::size_t r = first; r <= last; ++r) text += (r == first ? "" : "\n") + lines[r];
  return text;
}

}  // namespace

std::optional<Signature> enclosing_signature(const std::vector<std::string>& lines, std::uint32_t line,
                                             std::string_view function, Language language) {
  const bool python = language == Language::python;
  const std::string name = short_name(function, python);
  if (name.empty() || lines.empty() || line == 0) return std::nullopt;
  const std::size_t start = std::min<std::size_t>(line, lines.size()) - 1;
  const std::size_t stop = start >= kSignatureSearch ? start - kSignatureSearch : 0;
  for (std::size_t row = start + 1; row-- > stop;) {
    std::size_t last = row;
    if (python) {
      if (!python_def(lines[row], name)) continue;
      while (last + 1 < lines.size() && last < row + kSignatureLines - 1 && !trim(lines[last]).ends_with(":")) ++last;
      return Signature{static_cast<std::uint32_t>(row + 1), join(lines, row, last)};
    }
    const std::size_t column = call_like(lines[row], name);
    if (column == std::string_view::npos || !opens_body(lines, row, column)) continue;
    while (last + 1 < lines.size() && last < row + kSignatureLines - 1 && lines[last].find('{') == std::string::npos)
      ++last;
    std::size_t first = row;
    // The name starts its line: a return type or template header may stand above it.
    if (row > 0 && trim(std::string_view(lines[row]).substr(0, column)).empty() && signature_prefix(lines[row - 1]))
      first = row - 1;
    std::string text = join(lines, first, last);
    if (const auto brace = text.rfind('{'); brace != std::string::npos && brace >= text.size() - lines[last].size())
      text = std::string(trim(std::string_view(text).substr(0, brace)));
    return Signature{static_cast<std::uint32_t>(first + 1), std::move(text)};
  }
  return std::nullopt;
}

std::optional<TestName> parse_test_name(std::string_view test) {
  if (const auto sep = test.find("::"); sep != std::string_view::npos) {
    const std::string_view file = test.substr(0, sep);
    if (!file.ends_with(".py")) return std::nullopt;
    std::string_view function = test.substr(test.rfind("::") + 2);
    function = function.substr(0, function.find('['));
    if (function.empty()) return std::nullopt;
    return TestName{std::string(file), {}, std::string(function)};
  }
  const auto dot = test.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  // `Inst/Suite` or `Suite/0` (typed): the last part that is not a number.
  std::string_view suite;
  for (std::string_view rest = test.substr(0, dot); !rest.empty();) {
    const auto slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    if (!part.empty() && !std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); }))
      suite = part;
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  }
  std::string_view name = test.substr(dot + 1);
  name = name.substr(0, name.find('/'));
  const auto identifier = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return word_char(c); });
  };
  if (!identifier(suite) || !identifier(name)) return std::nullopt;
  return TestName{{}, std::string(suite), std::string(name)};
}

std::uint32_t find_test_definition(const std::vector<std::string>& lines, const TestName& test) {
  for (std::size_t row = 0; row < lines.size(); ++row) {
    const std::string_view line = lines[row];
    if (test.suite.empty()) {
      if (python_def(line, test.function)) return static_cast<std::uint32_t>(row + 1);
      continue;
    }
    // TEST(Suite, Name), TEST_F, TEST_P, TYPED_TEST, TYPED_TEST_P: the arguments, spaces aside.
    const auto open = line.find('(');
    if (open == std::string_view::npos) continue;
    const std::string_view macro = trim(line.substr(0, open));
    if (macro != "TEST" && macro != "TEST_F" && macro != "TEST_P" && macro != "TYPED_TEST" && macro != "TYPED_TEST_P")
      continue;
    std::string args;
    for (const char c : line.substr(open + 1, line.find(')', open) - open - 1))
      if (!std::isspace(static_cast<unsigned char>(c))) args += c;
    if (args == test.suite + "," + test.function) return static_cast<std::uint32_t>(row + 1);
  }
  return 0;
}

std::uint32_t definition_end(const std::vector<std::string>& lines, std::uint32_t first, bool python,
                             std::uint32_t max_lines, bool& cut) {
  cut = false;
  const std::size_t begin = first - 1, limit = std::min<std::size_t>(lines.size(), begin + max_lines);
  std::size_t last = begin;
  if (python) {
    const std::size_t indent = indentation(lines[begin]);
    for (std::size_t r = begin + 1; r < lines.size(); ++r) {
      if (!trim(lines[r]).empty() && indentation(lines[r]) <= indent) break;
      if (r >= limit) {
        cut = true;
        break;
      }
      if (!trim(lines[r]).empty()) last = r;
    }
    return static_cast<std::uint32_t>(last + 1);
  }
  // Braces outside string and character literals and // comments; good enough for tests.
  long depth = 0;
  bool opened = false;
  for (std::size_t r = begin; r < lines.size(); ++r) {
    if (r >= limit) {
      cut = true;
      return static_cast<std::uint32_t>(limit);
    }
    const std::string& line = lines[r];
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quote) {
        if (c == '\\') ++i;
        else if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
        break;
      } else if (c == '{') {
        ++depth;
        opened = true;
      } else if (c == '}') {
        --depth;
      }
    }
    if (opened && depth <= 0) return static_cast<std::uint32_t>(r + 1);
  }
  return static_cast<std::uint32_t>(lines.size());
}

}  // namespace dlfl::io::detail
