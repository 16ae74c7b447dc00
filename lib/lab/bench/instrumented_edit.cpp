// Placing a mutant's edit in an instrumented file (include/dlfl/lab/bench/instrumented_edit.h).
#include "dlfl/lab/bench/instrumented_edit.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

namespace dlfl::bench {
namespace {

// Offsets where each line starts (line k, 1-based, starts at starts[k-1]).
std::vector<std::size_t> line_starts(std::string_view text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(i + 1);
  return starts;
}

// 1-based line holding byte `offset`.
std::size_t line_of(const std::vector<std::size_t>& starts, std::size_t offset) {
  return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin());
}

// Length of the probe store the instrumenter writes (rewrite.cpp probe_text) at t[pos]:
// `__dlfl_map[N].hit = 1; `, `DLFL_RT_PROBE(N); `, or either inside the
// `(void)(__builtin_is_constant_evaluated() ? 0 : (...)); ` guard. 0 when there is none.
std::size_t probe_length(std::string_view t, std::size_t pos) {
  constexpr std::string_view guard = "(void)(__builtin_is_constant_evaluated() ? 0 : (";
  constexpr std::string_view map_store = "__dlfl_map[";
  constexpr std::string_view macro_store = "DLFL_RT_PROBE(";
  std::size_t p = pos;
  const bool guarded = t.substr(p).starts_with(guard);
  if (guarded) p += guard.size();
  auto digits_end = [&](std::size_t q) {
    while (q < t.size() && std::isdigit(static_cast<unsigned char>(t[q]))) ++q;
    return q;
  };
  if (t.substr(p).starts_with(map_store)) {
    const std::size_t q = digits_end(p + map_store.size());
    if (q == p + map_store.size() || !t.substr(q).starts_with("].hit = 1")) return 0;
    p = q + std::string_view("].hit = 1").size();
  } else if (t.substr(p).starts_with(macro_store)) {
    const std::size_t q = digits_end(p + macro_store.size());
    if (q == p + macro_store.size() || !t.substr(q).starts_with(")")) return 0;
    p = q + 1;
  } else {
    return 0;
  }
  const std::string_view tail = guarded ? ")); " : "; ";
  if (!t.substr(p).starts_with(tail)) return 0;
  return p + tail.size() - pos;
}

// Lines of the instrumenter's prologue (`#define`s, `#include <dlfl_rt/probe.h>`, and
// the `#line 1 "..."` that ends it); 0 for a file it did not rewrite.
std::size_t prologue_lines(std::string_view text) {
  if (!text.starts_with("#define DLFL_RT_PROBE_COUNT")) return 0;
  std::size_t line = 0;
  for (std::size_t pos = 0; pos < text.size() && line < 16;) {
    ++line;
    if (text.substr(pos).starts_with("#line 1 ")) return line;
    const auto nl = text.find('\n', pos);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return 0;
}

// Text the instrumenter inserted: a probe store, the `{ ` before a wrapped statement's
// probe, or the ` }` after the statement.
enum class Inserted : char { probe, opener, closer };
struct Insertion {
  std::size_t at;  // offset in the instrumented text
  Inserted kind;
};

// Aligns `orig` with `inst` = orig plus inserted probes, `{ ` before a probe and ` }`.
// Returns, per byte of orig, the byte of inst it is, and the insertions in order; false
// when no alignment exists.
bool align(std::string_view orig, std::string_view inst, std::vector<std::size_t>& position,
           std::vector<Insertion>& insertions) {
  const std::size_t n = orig.size(), m = inst.size();
  std::vector<std::size_t> probe(m + 1, 0);
  for (std::size_t j = 0; j < m; ++j) probe[j] = probe_length(inst, j);
  auto opener = [&](std::size_t j) { return inst.substr(j, 2) == "{ " && j + 2 < m && probe[j + 2] > 0; };
  auto closer = [&](std::size_t j) { return inst.substr(j, 2) == " }"; };
  // can[i][j]: orig[i..] aligns with inst[j..]. Filled backwards.
  std::vector<char> can((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> char& { return can[i * (m + 1) + j]; };
  for (std::size_t i = n + 1; i-- > 0;) {
    for (std::size_t j = m + 1; j-- > 0;) {
      if (i == n && j == m) {
        at(i, j) = 1;
        continue;
      }
      if (j == m) continue;
      bool ok = i < n && orig[i] == inst[j] && at(i + 1, j + 1);
      ok = ok || (probe[j] > 0 && at(i, j + probe[j]));
      ok = ok || (opener(j) && at(i, j + 2));
      ok = ok || (closer(j) && at(i, j + 2));
      at(i, j) = ok;
    }
  }
  if (!at(0, 0)) return false;
  position.assign(n, 0);
  insertions.clear();
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && orig[i] == inst[j] && at(i + 1, j + 1)) {
      position[i++] = j++;
      continue;
    }
    std::size_t skip = 2;
    Inserted kind = Inserted::closer;  // unless one of the others: at(0, 0) guarantees one step holds
    if (probe[j] > 0 && at(i, j + probe[j])) {
      skip = probe[j];
      kind = Inserted::probe;
    } else if (opener(j) && at(i, j + 2)) {
      kind = Inserted::opener;
    }
    insertions.push_back({j, kind});
    j += skip;
  }
  return true;
}

InstrumentedEdit failure(std::string reason) { return {false, {}, std::move(reason)}; }

// The same edit with what it does not change left out: the common prefix and suffix of
// the two texts, and for a deletion the blanks and line breaks around the deleted code
// (`dlfl mutate` deletes a statement with its indentation and line break). The probe the
// instrumenter put after the indentation then stays: the deleted statement's line is
// still reached, as the fault's location should be.
struct Edit {
  std::size_t offset;
  std::string_view original;
  std::string_view replacement;
};

Edit minimal_edit(const mutate::Mutant& m) {
  std::string_view o = m.original, r = m.replacement;
  std::size_t offset = m.offset;
  while (!o.empty() && !r.empty() && o.front() == r.front()) {
    o.remove_prefix(1);
    r.remove_prefix(1);
    ++offset;
  }
  while (!o.empty() && !r.empty() && o.back() == r.back()) {
    o.remove_suffix(1);
    r.remove_suffix(1);
  }
  if (r.empty()) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!o.empty() && blank(o.front())) {
      o.remove_prefix(1);
      ++offset;
    }
    while (!o.empty() && blank(o.back())) o.remove_suffix(1);
  }
  return {offset, o, r};
}

}  // namespace

InstrumentedEdit apply_to_instrumented(const std::string& original, const std::string& instrumented,
                                       const mutate::Mutant& mutant) {
  if (mutant.offset > original.size() ||
      original.compare(mutant.offset, mutant.original.size(), mutant.original) != 0)
    return failure("the original file does not hold the mutated text at byte " + std::to_string(mutant.offset));
  const Edit e = minimal_edit(mutant);
  const std::size_t length = e.original.size();
  const auto breaks = [](std::string_view s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); };
  const std::size_t original_breaks = breaks(e.original), replacement_breaks = breaks(e.replacement);
  if (replacement_breaks > original_breaks) return failure("the replacement adds line breaks");
  const std::string replacement = std::string(e.replacement) + std::string(original_breaks - replacement_breaks, '\n');

  // The block of whole lines holding the edit, in both files.
  const auto orig_starts = line_starts(original);
  const std::size_t first = line_of(orig_starts, e.offset);
  const std::size_t last = line_of(orig_starts, e.offset + (length ? length - 1 : 0));
  const std::size_t orig_begin = orig_starts[first - 1];
  const std::size_t orig_end = last < orig_starts.size() ? orig_starts[last] : original.size();

  const std::size_t shift = prologue_lines(instrumented);
  const auto inst_starts = line_starts(instrumented);
  if (last + shift > inst_starts.size()) return failure("the instrumented copy has fewer lines than the original");
  const std::size_t inst_begin = inst_starts[first + shift - 1];
  const std::size_t inst_end = last + shift < inst_starts.size() ? inst_starts[last + shift] : instrumented.size();

  const std::string_view orig_block(original.data() + orig_begin, orig_end - orig_begin);
  const std::string_view inst_block(instrumented.data() + inst_begin, inst_end - inst_begin);
  // The DP table is |orig| x |inst| bytes: refuse absurd blocks (a minified line).
  if (static_cast<double>(orig_block.size() + 1) * static_cast<double>(inst_block.size() + 1) > 64e6)
    return failure("the mutated lines are too long to align");
  std::vector<std::size_t> position;
  std::vector<Insertion> insertions;
  if (!align(orig_block, inst_block, position, insertions))
    return failure("the instrumented copy does not match the original at lines " + std::to_string(first) + "-" +
                   std::to_string(last));

  const std::size_t s = e.offset - orig_begin;
  std::size_t from = 0, to = 0;
  if (length == 0) {
    from = to = s < position.size() ? position[s] : inst_block.size();
  } else {
    from = position[s];
    to = position[s + length - 1] + 1;
    // Probes inside the edited bytes (e.g. a deleted block) go with them, as long as the
    // braces the instrumenter added stay balanced: an opener inside needs its closer
    // inside too.
    int depth = 0;
    for (const auto& insertion : insertions) {
      if (insertion.at < from || insertion.at >= to) continue;
      if (insertion.kind == Inserted::opener) ++depth;
      if (insertion.kind == Inserted::closer && --depth < 0)
        return failure("the mutated text ends a block the instrumenter opened");
    }
    // A wrapped statement edited whole: its ` }` follows the last edited byte; take it along.
    for (const auto& insertion : insertions) {
      if (depth == 0) break;
      if (insertion.at == to && insertion.kind == Inserted::closer) {
        to += 2;
        --depth;
      }
    }
    if (depth != 0) return failure("the mutated text opens a block the instrumenter closes after it");
  }
  InstrumentedEdit edit;
  edit.ok = true;
  edit.text.reserve(instrumented.size() + replacement.size());
  edit.text.append(instrumented, 0, inst_begin + from);
  edit.text += replacement;
  edit.text.append(instrumented, inst_begin + to, std::string::npos);
  return edit;
}

}  // namespace dlfl::bench
