// Aggregation of a line spectrum to functions or files, and max-score aggregation.
#include "dlfl/aggregate.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <numeric>
#include <thread>
#include <utility>

namespace dlfl {
namespace {

// A group's record: the first member's file, function and lines, widened by widen().
ElementRecord group_record(const ElementRecord& first, StringId function) {
  ElementRecord g;
  g.file = first.file;
  g.function = function;
  g.first_line = first.first_line;
  g.last_line = first.last_line;
  g.language = first.language;
  return g;
}

void widen(ElementRecord& g, const ElementRecord& member) {
  if (member.first_line != 0 && (g.first_line == 0 || member.first_line < g.first_line)) g.first_line = member.first_line;
  g.last_line = std::max(g.last_line, member.last_line);
}

bool same_column(const Coverage& coverage, std::size_t a, std::size_t b) {
  if (coverage.is_dense()) return std::ranges::equal(coverage.bits(a), coverage.bits(b));
  return std::ranges::equal(coverage.sparse_tests_of(a), coverage.sparse_tests_of(b));
}

// Block groups: code elements in (file, line) order; a block is a maximal run of one
// function's lines with identical columns that no other element interrupts, so its line
// span holds its members only (a fault on a line between two of them matches nothing
// else). Returns the group of every code element; extrinsic ones are left untouched.
void group_blocks(const Spectrum& spectrum, std::vector<std::uint32_t>& group_of,
                  std::vector<ElementRecord>& groups) {
  std::vector<std::uint32_t> order;
  for (std::size_t e = 0; e < spectrum.element_count(); ++e)
    if (spectrum.element(e).kind == ElementKind::code) order.push_back(static_cast<std::uint32_t>(e));
  const auto keys = spectrum.tie_break_keys();  // orders by (file, first line, id)
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  const Coverage& cov = spectrum.coverage();
  std::uint32_t previous = 0;
  bool have_previous = false;
  for (const std::uint32_t e : order) {
    const ElementRecord& r = spectrum.element(e);
    const ElementRecord* p = have_previous ? &spectrum.element(previous) : nullptr;
    if (p && p->file == r.file && p->function == r.function && same_column(cov, previous, e)) {
      widen(groups[group_of[previous]], r);
      group_of[e] = group_of[previous];
    } else {
      group_of[e] = static_cast<std::uint32_t>(groups.size());
      groups.push_back(group_record(r, r.function));
    }
    previous = e;
    have_previous = true;
  }
}

}  // namespace

std::optional<Granularity> parse_granularity(std::string_view name) noexcept {
  if (name == "line") return Granularity::line;
  if (name == "block") return Granularity::block;
  if (name == "function") return Granularity::function;
  if (name == "file") return Granularity::file;
  return std::nullopt;
}

std::string_view granularity_name(Granularity granularity) noexcept {
  switch (granularity) {
    case Granularity::line: return "line";
    case Granularity::block: return "block";
    case Granularity::function: return "function";
    case Granularity::file: return "file";
  }
  return "line";
}

Aggregated aggregate(const Spectrum& spectrum, Granularity granularity) {
  const std::size_t n = spectrum.element_count();
  if (granularity == Granularity::line) {
    std::vector<std::uint32_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0u);
    return {spectrum, std::move(identity)};
  }

  // Group keys are string ids, so grouping costs no string comparisons.
  std::map<std::pair<StringId, StringId>, std::uint32_t> group_index;
  std::vector<ElementRecord> groups;
  std::vector<std::uint32_t> group_of(n);
  if (granularity == Granularity::block) group_blocks(spectrum, group_of, groups);
  bool have_last = false;
  std::pair<StringId, StringId> last_key;
  std::uint32_t last_group = 0;
  for (std::size_t e = 0; e < n; ++e) {
    const ElementRecord& r = spectrum.element(e);
    if (r.kind == ElementKind::extrinsic) {
      group_of[e] = static_cast<std::uint32_t>(groups.size());
      groups.push_back(r);
      continue;
    }
    if (granularity == Granularity::block) continue;
    const StringId function = granularity == Granularity::function ? r.function : 0;
    // A function's (a file's) lines are usually listed together: a run of one group
    // costs no tree lookup per element.
    const std::pair key{r.file, function};
    if (!have_last || last_key != key) {
      auto [it, added] = group_index.try_emplace(key, static_cast<std::uint32_t>(groups.size()));
      if (added) groups.push_back(group_record(r, function));
      have_last = true;
      last_key = key;
      last_group = it->second;
    }
    widen(groups[last_group], r);
    group_of[e] = last_group;
  }

  // A group's tests are the union of its members' tests: list members per group
  // (counting sort), then merge their sorted test lists.
  const Coverage& cov = spectrum.coverage();
  const std::size_t group_count = groups.size();
  std::vector<std::uint64_t> member_offsets(group_count + 1, 0);
  for (auto g : group_of) ++member_offsets[g + 1];
  for (std::size_t g = 0; g < group_count; ++g) member_offsets[g + 1] += member_offsets[g];
  std::vector<std::uint32_t> members(n);
  {
    std::vector<std::uint64_t> next(member_offsets.begin(), member_offsets.end() - 1);
    for (std::size_t e = 0; e < n; ++e) members[next[group_of[e]]++] = static_cast<std::uint32_t>(e);
  }
  // A dense union (functions of many lines, each run by many tests) is written as bits
  // straight into its row, in one pass over the ids, instead of listing its ids and
  // converting them (8x the time at 1M lines x 10k tests). The members' pair count bounds
  // the union's: when even that bound says sparse is smaller, the union is listed.
  Coverage coverage;
  if (dense_is_smaller(cov.tests(), group_count, cov.nnz())) {
    const std::size_t words = (cov.tests() + 63) / 64;
    std::vector<std::uint64_t> bits(group_count * words, 0);
    const auto fill = [&](std::size_t first, std::size_t last) {
      for (std::size_t g = first; g < last; ++g) {
        std::uint64_t* row = bits.data() + g * words;
        for (std::uint64_t m = member_offsets[g]; m < member_offsets[g + 1]; ++m) {
          if (cov.is_dense()) {
            for (const std::uint32_t t : cov.tests_of(members[m])) row[t >> 6] |= std::uint64_t{1} << (t & 63);
            continue;
          }
          // The ids themselves, not CoveringTests' iterator (a form test per id): this
          // loop runs once per covered pair, 100M times at 1M lines x 10k tests.
          for (const std::uint32_t t : cov.sparse_tests_of(members[m])) row[t >> 6] |= std::uint64_t{1} << (t & 63);
        }
      }
    };
    // Rows are disjoint: a large matrix is split between two threads at half the members
    // (as counts are, which this pass costs about as much as).
    if (cov.nnz() < (std::size_t{1} << 22) || std::thread::hardware_concurrency() < 2) {
      fill(0, group_count);
    } else {
      const auto half = static_cast<std::size_t>(
          std::upper_bound(member_offsets.begin(), member_offsets.end(), n / 2) - member_offsets.begin() - 1);
      std::jthread second(fill, half, group_count);
      fill(0, half);
    }
    // compact(): the sparse form when the union turned out small after all.
    coverage = Coverage::dense(cov.tests(), group_count, std::move(bits), /*validate=*/false).compact();
  } else {
    std::vector<std::uint64_t> offsets{0};
    offsets.reserve(group_count + 1);
    std::vector<std::uint32_t> test_ids;
    // Large unions go through a bitset over the tests, O(ids + tests/64), instead of a
    // sort, O(ids log ids).
    std::vector<std::uint64_t> union_bits((cov.tests() + 63) / 64, 0);
    for (std::size_t g = 0; g < group_count; ++g) {
      const auto start = static_cast<std::ptrdiff_t>(test_ids.size());
      for (std::uint64_t m = member_offsets[g]; m < member_offsets[g + 1]; ++m) {
        const auto tests = cov.tests_of(members[m]);
        test_ids.insert(test_ids.end(), tests.begin(), tests.end());
      }
      const auto added = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(test_ids.size()) - start);
      if (member_offsets[g + 1] - member_offsets[g] > 1 && added * 8 > union_bits.size()) {
        for (auto it = test_ids.begin() + start; it != test_ids.end(); ++it) union_bits[*it >> 6] |= std::uint64_t{1} << (*it & 63);
        test_ids.resize(static_cast<std::size_t>(start));
        for (std::size_t w = 0; w < union_bits.size(); ++w) {
          for (std::uint64_t bits = union_bits[w]; bits; bits &= bits - 1)
            test_ids.push_back(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
          union_bits[w] = 0;
        }
      } else if (member_offsets[g + 1] - member_offsets[g] > 1) {
        std::sort(test_ids.begin() + start, test_ids.end());
        test_ids.erase(std::unique(test_ids.begin() + start, test_ids.end()), test_ids.end());
      }
      offsets.push_back(test_ids.size());
    }
    coverage = Coverage(cov.tests(), std::move(offsets), std::move(test_ids), /*validate=*/false);
  }
  StringPool strings = spectrum.strings();
  if (granularity == Granularity::block) {
    // A block is named by its span, `file#function:first-last`, so every report shows it.
    for (ElementRecord& g : groups) {
      if (g.kind != ElementKind::code || g.last_line <= g.first_line) continue;
      std::string name(strings[g.file]);
      if (g.function != 0) name.append("#").append(strings[g.function]);
      name.append(":" + std::to_string(g.first_line) + "-" + std::to_string(g.last_line));
      g.name = strings.intern(name);
    }
  }
  return {Spectrum(std::move(strings), std::move(groups), spectrum.tests(), std::move(coverage)),
          std::move(group_of)};
}

Eigen::ArrayXd max_by_group(const Eigen::ArrayXd& scores, std::span<const std::uint32_t> group_of,
                            std::size_t groups) {
  Eigen::ArrayXd out = Eigen::ArrayXd::Constant(static_cast<Eigen::Index>(groups),
                                                -std::numeric_limits<double>::max());
  for (std::size_t e = 0; e < group_of.size(); ++e) {
    double& g = out[group_of[e]];
    g = std::max(g, scores[static_cast<Eigen::Index>(e)]);
  }
  return out;
}

}  // namespace dlfl
