// Fault matching: ground-truth items against ranked elements, by path and function
// components.
#include "dlfl/lab/eval/fault_matching.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

namespace dlfl::eval {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> path_components(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/' && path[i] != '\\') continue;
    const std::string_view part = path.substr(start, i - start);
    start = i + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      // `x/..` cancels; a leading `..` names a directory we cannot see, so it is dropped.
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  return parts;
}

// Whether the character after `before` belongs to an operator's name ("operator<",
// "operator<<", "operator->", "operator>>", "operator()") rather than opening or closing
// template arguments or a parameter list.
bool in_operator_name(std::string_view before) {
  return before.ends_with("operator") || before.ends_with("operator<") || before.ends_with("operator-") ||
         before.ends_with("operator>");
}

// Cuts the parameter list: from the first `(` outside template arguments (llvm-cov's
// names hold casts there: `T<false, (isa_t)0>::run()`) that is not the name of
// `operator()`.
std::string_view strip_parameters(std::string_view name) {
  const std::size_t first = name.find('(');
  if (first == std::string_view::npos) return name;
  std::size_t depth = 0;
  // Most names have no '<' before their parameters: then the first '(' is theirs.
  for (std::size_t i = name.substr(0, first).find('<') == std::string_view::npos ? first : 0; i < name.size(); ++i) {
    const std::string_view before = name.substr(0, i);
    const bool operator_char = in_operator_name(before);
    if (name[i] == '<' && !operator_char) {
      ++depth;
    } else if (name[i] == '>' && depth > 0 && !operator_char) {
      --depth;
    } else if (name[i] == '(' && depth == 0) {
      if (before.ends_with("operator") && name.substr(i, 2) == "()") {
        ++i;
        continue;
      }
      return trim(before);
    }
  }
  return name;
}

// gcov names a function template's instance with its return type and template
// arguments ("dgl::COOMatrix dgl::impl::Pick<int>"); a fix names the template ("Pick").
// The name without both: what follows the last blank outside <...> (unless it follows
// "operator", as in "operator new"), then each <...> removed, an operator's own '<' kept.
std::string without_return_type_and_template_arguments(std::string_view name) {
  std::size_t depth = 0, start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const bool operator_char = i >= 8 && name.substr(i - 8, 8) == "operator";
    if (name[i] == '<' && !operator_char) ++depth;
    else if (name[i] == '>' && depth > 0) --depth;
    else if (name[i] == ' ' && depth == 0 && !operator_char) start = i + 1;
  }
  std::string out;
  depth = 0;
  for (std::size_t i = start; i < name.size(); ++i) {
    const bool operator_char = in_operator_name(name.substr(start, i - start));
    if (name[i] == '<' && !operator_char) ++depth;
    else if (name[i] == '>' && depth > 0 && !operator_char) --depth;
    else if (depth == 0) out += name[i];
  }
  return out;
}

std::vector<std::string_view> name_components(std::string_view name) {
  name = strip_parameters(trim(name));
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    std::size_t separator = 0;
    if (i == name.size() || name[i] == '.') {
      separator = 1;
    } else if (name[i] == ':' && i + 1 < name.size() && name[i + 1] == ':') {
      separator = 2;
    } else {
      continue;
    }
    if (i > start) parts.push_back(name.substr(start, i - start));
    start = i + separator;
    i += separator - 1;
  }
  return parts;
}

// The shorter list equals the tail of the longer one; empty lists match nothing.
bool tails_match(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  if (a.empty() || b.empty()) return false;
  const auto& shorter = a.size() <= b.size() ? a : b;
  const auto& longer = a.size() <= b.size() ? b : a;
  return std::equal(shorter.rbegin(), shorter.rend(), longer.rbegin());
}

// Walks a path's components from the last one backwards with path_components()'s
// rules, without allocating: matching runs once per ranked element and fault.
class ReversePathCursor {
 public:
  explicit ReversePathCursor(std::string_view path) : rest_(path) {}

  // The next component towards the root; empty when there is none.
  std::string_view next() {
    std::size_t pending_parents = 0;  // `..` seen, each cancelling one component before it
    while (!rest_.empty()) {
      const std::size_t slash = rest_.find_last_of("/\\");
      const std::size_t begin = slash == std::string_view::npos ? 0 : slash + 1;
      const std::string_view part = rest_.substr(begin);
      rest_ = rest_.substr(0, slash == std::string_view::npos ? 0 : slash);
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        ++pending_parents;
        continue;
      }
      if (pending_parents > 0) {
        --pending_parents;
        continue;
      }
      return part;
    }
    return {};
  }

 private:
  std::string_view rest_;
};

}  // namespace

Granularity granularity(const GroundTruthItem& fault) noexcept {
  if (fault.line) return Granularity::line;
  return fault.function.empty() ? Granularity::file : Granularity::function;
}

std::string normalize_path(std::string_view path) {
  std::string joined;
  for (const std::string_view part : path_components(path)) {
    if (!joined.empty()) joined += '/';
    joined += part;
  }
  return joined;
}

bool same_file(std::string_view a, std::string_view b) {
  ReversePathCursor left(a), right(b);
  std::string_view x = left.next(), y = right.next();
  if (x.empty() || y.empty()) return false;
  for (; !x.empty() && !y.empty(); x = left.next(), y = right.next()) {
    if (x != y) return false;
  }
  return true;  // one path ran out: it is a tail of the other
}

bool same_function(std::string_view a, std::string_view b) {
  if (tails_match(name_components(a), name_components(b))) return true;
  // Only a name with a return type or template arguments has more to compare; matching
  // runs once per ranked element and fault, so the others allocate nothing here.
  const std::string_view x = strip_parameters(trim(a)), y = strip_parameters(trim(b));
  if (x.find_first_of("< ") == std::string_view::npos && y.find_first_of("< ") == std::string_view::npos) return false;
  return tails_match(name_components(without_return_type_and_template_arguments(x)),
                     name_components(without_return_type_and_template_arguments(y)));
}

bool matches(const GroundTruthItem& fault, const ScoredElement& element) {
  if (!same_file(fault.file, element.file)) return false;
  switch (granularity(fault)) {
    case Granularity::file:
      return true;
    case Granularity::function:
      return element.is_whole_file() || same_function(fault.function, element.function);
    case Granularity::line:
    case Granularity::block:
      return element.is_whole_file() ||
             (element.first_line != 0 && element.first_line <= fault.line &&
              fault.line <= element.end_line());
  }
  return false;
}

std::vector<GroundTruthItem> lift_faults(std::span<const GroundTruthItem> faults,
                                         Granularity level) {
  std::vector<GroundTruthItem> lifted;
  std::set<std::tuple<std::string, std::string, std::uint32_t>> seen;
  for (const GroundTruthItem& fault : faults) {
    GroundTruthItem at_level = fault;
    if (level == Granularity::file) {
      at_level.function.clear();
      at_level.line = 0;
    } else if (level == Granularity::function && !at_level.function.empty()) {
      at_level.line = 0;  // the line's function is known: it is the faulty function
    }
    // A line fault's function does not take part in matching, so not in identity either.
    const std::string function = at_level.line ? std::string() : at_level.function;
    if (seen.emplace(normalize_path(at_level.file), function, at_level.line).second) {
      lifted.push_back(std::move(at_level));
    }
  }
  return lifted;
}

std::vector<GroundTruthItem> name_functions_as_ranked(std::span<const GroundTruthItem> faults,
                                                      std::span<const ScoredElement> ranking) {
  std::vector<GroundTruthItem> named(faults.begin(), faults.end());
  for (GroundTruthItem& fault : named) {
    if (!fault.line || fault.function.empty()) continue;
    const ScoredElement* holder = nullptr;
    bool by_name = false;
    for (const ScoredElement& e : ranking) {
      if (e.function.empty() || !same_file(fault.file, e.file)) continue;
      if (same_function(fault.function, e.function)) {
        by_name = true;
        break;
      }
      if (!holder && e.first_line != 0 && e.first_line <= fault.line && fault.line <= e.end_line()) holder = &e;
    }
    if (!by_name && holder) fault.function = holder->function;
  }
  return named;
}

}  // namespace dlfl::eval
