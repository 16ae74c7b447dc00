// Joining a spectrum's functions with call graph nodes by a normalized name.
#include "dlfl/graph/function_join.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_map>

#include "dlfl/error.h"

namespace dlfl::graph {
namespace {

// Spectrum functions by key; found by string_view (no copy per graph function).
struct KeyHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
using KeyIndex = std::unordered_map<std::string, std::vector<std::uint32_t>, KeyHash, std::equal_to<>>;

// Nothing for function_key to strip (no template arguments, parameters, qualifiers,
// return type or clone suffix): most names of the instrumenter's own graphs.
bool key_is_name(std::string_view name) { return name.find_first_of("<( &") == std::string_view::npos; }

bool is_operator_symbol(char c) { return std::string_view("+-*/%^&|~!=<>,[]").find(c) != std::string_view::npos; }
bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Removes a trailing qualifier word (const, volatile, noexcept, &, &&) and spaces.
bool strip_trailing_qualifier(std::string& s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  for (std::string_view q : {"const", "volatile", "noexcept", "&&", "&"}) {
    if (s.ends_with(q)) {
      const std::size_t at = s.size() - q.size();
      const bool word = std::isalpha(static_cast<unsigned char>(q[0]));
      if (at > 0 && (word ? s[at - 1] == ' ' || s[at - 1] == ')' : true)) {
        s.erase(at);
        return true;
      }
    }
  }
  return false;
}

// gcov and llvm-cov name a lambda `outer()::{lambda(int)#1}::operator()(int) const` (key
// `outer::{lambda#1}::operator()`), the instrumenter and the call graph `outer::lambda@LINE`
// (LINE: where the lambda is written). The gcov name has no line, so each such spectrum
// function joins the graph lambda of the same outer function with the largest LINE at or
// above its first line (the lambda written last before its code starts); nested lambdas
// compare the innermost LINE. Adds the joined keys to `by_key`.
void join_gcov_lambdas(const Spectrum& functions, const CompactCallGraph& g, KeyIndex& by_key) {
  constexpr std::string_view gcov_lambda = "::{lambda", graph_lambda = "::lambda@";
  std::vector<std::pair<std::string, std::uint32_t>> pending;  // (outer key, function)
  for (const auto& [key, list] : by_key)
    if (const auto at = key.find(gcov_lambda); at != std::string::npos)
      for (const auto f : list) pending.emplace_back(key.substr(0, at), f);
  if (pending.empty()) return;
  std::unordered_map<std::string, std::vector<std::pair<std::uint32_t, std::string>>> lambdas;  // outer -> (LINE, key)
  for (std::size_t v = 0; v < g.function_count(); ++v) {
    if (g.names[v].find("lambda@") == std::string_view::npos) continue;
    std::string key = function_key(g.names[v]);
    const auto first = key.find(graph_lambda), last = key.rfind("lambda@");
    if (first == std::string::npos) continue;
    const std::string_view digits = std::string_view(key).substr(last + 7);
    std::uint32_t line = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') break;
      line = line * 10 + static_cast<std::uint32_t>(c - '0');
    }
    lambdas[key.substr(0, first)].emplace_back(line, std::move(key));
  }
  for (const auto& [outer, f] : pending) {
    const auto it = lambdas.find(outer);
    if (it == lambdas.end()) continue;
    const std::uint32_t first_line = functions.element(f).first_line;
    const std::string* best = nullptr;
    std::uint32_t best_line = 0;
    for (const auto& [line, key] : it->second)
      if (line <= first_line && (!best || line > best_line)) best = &key, best_line = line;
    if (best) by_key[*best].push_back(f);
  }
}

}  // namespace

std::string function_key(std::string_view name) {
  if (key_is_name(name)) return std::string(name);
  if (const auto clone = name.find(" [clone"); clone != std::string_view::npos) name = name.substr(0, clone);
  std::string out;
  int angle = 0, paren = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    // `operator<`, `operator()`: the symbol is part of the name, not a bracket.
    if (angle == 0 && paren == 0 && c == 'o' && name.substr(i).starts_with("operator") &&
        (i == 0 || !is_word_char(name[i - 1]))) {
      std::size_t j = i + 8;
      out.append("operator");
      while (j < name.size() && name[j] == ' ') ++j;
      if (name.substr(j).starts_with("()")) {
        out.append("()");
        j += 2;
      } else {
        while (j < name.size() && is_operator_symbol(name[j])) out.push_back(name[j++]);
      }
      i = j - 1;
      continue;
    }
    if (c == '<') ++angle;
    else if (c == '>' && angle > 0) --angle;
    else if (c == '(') ++paren;
    else if (c == ')' && paren > 0) --paren;
    else if (angle == 0 && paren == 0) out.push_back(c);
  }
  while (strip_trailing_qualifier(out)) {
  }
  // The return type (gcov names templates with it) is everything before the last space.
  if (const auto space = out.rfind(' '); space != std::string::npos) out.erase(0, space + 1);
  return out;
}

FunctionGraph join_functions(const Spectrum& elements, const CallGraph& graph) {
  return join_functions(elements, compact_call_graph(graph));
}

FunctionGraph join_functions(const Spectrum& elements, const CompactCallGraph& graph) {
  FunctionGraph result;
  result.functions = aggregate(elements, Granularity::function);
  const Spectrum& functions = result.functions.spectrum;
  const std::size_t n = functions.element_count();

  // Graph function -> the spectrum functions with its key (one name can be defined in
  // several files: static helpers, overloads).
  KeyIndex by_key;
  for (std::size_t f = 0; f < n; ++f) {
    const auto name = functions.function(f);
    if (!name.empty()) by_key[function_key(name)].push_back(static_cast<std::uint32_t>(f));
  }
  join_gcov_lambdas(functions, graph, by_key);
  const std::size_t vertices = graph.function_count();
  std::vector<const std::vector<std::uint32_t>*> of_vertex(vertices, nullptr);
  std::vector<bool> joined(n, false);
  for (std::size_t v = 0; v < vertices; ++v) {
    const std::string_view name = graph.names[v];
    const auto it = key_is_name(name) ? by_key.find(name) : by_key.find(function_key(name));
    if (it == by_key.end()) continue;
    of_vertex[v] = &it->second;
    for (const auto f : it->second) joined[f] = true;
  }
  result.joined = static_cast<std::size_t>(std::count(joined.begin(), joined.end(), true));
  if (!graph.empty() && result.joined == 0)
    throw Error("none of the call graph's " + std::to_string(graph.function_count()) +
                " functions is a function of the spectrum (a graph of another build?)");

  std::vector<std::vector<std::uint32_t>> callees(n), callers(n);
  for (std::size_t v = 0; v < vertices; ++v) {
    const auto* from = of_vertex[v];
    if (!from) continue;
    for (auto k = graph.callee_offsets[v]; k < graph.callee_offsets[v + 1]; ++k) {
      const auto* to = of_vertex[graph.callees[k]];
      if (!to) continue;
      for (const auto a : *from)
        for (const auto b : *to)
          if (a != b) {
            callees[a].push_back(b);
            callers[b].push_back(a);
          }
    }
  }
  auto flatten = [](std::vector<std::vector<std::uint32_t>>& lists, std::vector<std::uint64_t>& offsets,
                    std::vector<std::uint32_t>& flat) {
    for (auto& list : lists) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      flat.insert(flat.end(), list.begin(), list.end());
      offsets.push_back(flat.size());
    }
  };
  flatten(callees, result.callee_offsets, result.callees);
  flatten(callers, result.caller_offsets, result.callers);
  return result;
}

}  // namespace dlfl::graph
