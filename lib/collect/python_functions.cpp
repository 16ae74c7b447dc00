// Python functions by indentation (see python_functions.h).
#include "dlfl/collect/python_functions.h"

#include <algorithm>
#include <optional>
#include <string>

namespace dlfl::collect {
namespace {

struct Open {
  std::size_t indent;
  std::string qualname;
  bool is_class;
  std::size_t function_index;  // into the result; unused for classes
};

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// `def NAME`, `async def NAME` or `class NAME` at the start of `code`: the name.
std::optional<std::string> definition(std::string_view code, bool& is_class) {
  if (code.starts_with("async ")) code = trim_left(code.substr(6));
  if (code.starts_with("def ")) is_class = false;
  else if (code.starts_with("class ")) is_class = true;
  else return std::nullopt;
  code = trim_left(code.substr(is_class ? 6 : 4));
  std::size_t n = 0;
  while (n < code.size() && (std::isalnum(static_cast<unsigned char>(code[n])) || code[n] == '_' ||
                             static_cast<unsigned char>(code[n]) >= 0x80))
    ++n;
  if (n == 0) return std::nullopt;
  return std::string(code.substr(0, n));
}

// Updates the bracket depth and the open triple-quoted string over one line of code.
void scan(std::string_view line, int& depth, std::string& open_quote) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (!open_quote.empty()) {
      if (line[i] == '\\') ++i;
      else if (line.substr(i).starts_with(open_quote)) {
        i += open_quote.size() - 1;
        open_quote.clear();
      }
      continue;
    }
    const char c = line[i];
    if (c == '#') return;
    if (c == '"' || c == '\'') {
      const std::string triple(3, c);
      if (line.substr(i).starts_with(triple)) {
        open_quote = triple;
        i += 2;
      } else {
        open_quote = std::string(1, c);
      }
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  if (open_quote.size() == 1) open_quote.clear();  // a one-quote string ends with its line
}

}  // namespace

std::vector<io::PythonFunction> find_python_functions(std::string_view source) {
  std::vector<io::PythonFunction> out;
  std::vector<Open> stack;
  std::uint32_t number = 0, last_code_line = 0, decorator_line = 0;
  int depth = 0;
  std::string open_quote;
  auto close_to = [&](std::size_t indent) {
    while (!stack.empty() && stack.back().indent >= indent) {
      if (!stack.back().is_class) out[stack.back().function_index].last_line = last_code_line;
      stack.pop_back();
    }
  };
  while (!source.empty()) {
    const std::size_t end = source.find('\n');
    std::string_view line = source.substr(0, end);
    source.remove_prefix(end == std::string_view::npos ? source.size() : end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const bool continuation = depth > 0 || !open_quote.empty();
    const std::string_view code = trim_left(line);
    if (!continuation && !code.empty() && code.front() != '#') {
      const std::size_t indent = line.size() - code.size();
      close_to(indent);
      bool is_class = false;
      if (code.front() == '@') {
        if (!decorator_line) decorator_line = number;
      } else if (const auto name = definition(code, is_class)) {
        std::string qualname = *name;
        if (!stack.empty()) qualname = stack.back().qualname + (stack.back().is_class ? "." : ".<locals>.") + *name;
        std::size_t index = out.size();
        if (!is_class) out.push_back({decorator_line ? decorator_line : number, number, qualname});
        stack.push_back({indent, std::move(qualname), is_class, index});
        decorator_line = 0;
      } else {
        decorator_line = 0;
      }
    }
    if (!code.empty() && (continuation || code.front() != '#')) last_code_line = number;
    scan(line, depth, open_quote);
  }
  close_to(0);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first_line < b.first_line; });
  return out;
}

std::string_view python_function_at(const std::vector<io::PythonFunction>& functions, std::uint32_t line) {
  std::string_view best;
  for (const auto& f : functions) {
    if (f.first_line > line) break;
    if (line <= f.last_line) best = f.name;  // later starts are nested deeper
  }
  return best;
}

}  // namespace dlfl::collect
