// merge_spectra(): the union of spectra of the same code, streamed into a native file.
//
// Two passes at most over the inputs' coverage: the first (only when a test is met in
// several inputs, or an input has no failing rows) counts each output row; the second
// writes them. Shards of one collection (disjoint tests, one element table) take one
// pass: an output row is the inputs' rows one after the other, test ids shifted.
#include "dlfl/formats/spectrum_merge.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/spectrum_union.h"
#include "check_ahead.h"
#include "merge_checks.h"
#include "merge_input.h"
#include "native_layout.h"

namespace dlfl::io {
namespace {

namespace fs = std::filesystem;
using namespace native;
constexpr std::uint32_t kNone = UINT32_MAX;

using merge::check_related;
using merge::kCheckRange;
using merge::kReleaseRange;
using merge::StreamedInputs;
using merge::Input;
using merge::merged_origin;
using merge::release;

// ---- elements --------------------------------------------------------------------------

bool same_element_table(const Spectrum& a, const Spectrum& b) {
  // An input whose table read_inputs found identical to the first's holds the first's.
  auto same_bytes = [](auto x, auto y) {
    return x.size() == y.size() &&
           (x.empty() || x.data() == y.data() || std::memcmp(x.data(), y.data(), x.size_bytes()) == 0);
  };
  return same_bytes(a.elements(), b.elements()) && same_bytes(a.strings().blob(), b.strings().blob()) &&
         same_bytes(a.strings().offsets(), b.strings().offsets());
}

// The output's elements and, per input, where each output element is in it.
struct ElementUnion {
  bool shared_table = false;  // every input has the first one's table: no maps below
  StringPool strings;
  std::vector<ElementRecord> records;                 // when !shared_table
  std::vector<std::vector<std::uint32_t>> local_of;  // [input][output element] -> local or kNone
  std::size_t partial = 0;                            // elements missing from some input
  std::vector<char> meets;                            // [input]: has an element of an earlier one

  std::uint32_t local(std::size_t input, std::size_t element) const {
    return shared_table ? static_cast<std::uint32_t>(element) : local_of[input][element];
  }
};

ElementUnion unite_elements(const std::vector<Input>& in) {
  ElementUnion u;
  u.shared_table = true;
  for (std::size_t i = 1; i < in.size() && u.shared_table; ++i)
    u.shared_table = same_element_table(in[i].spectrum, in.front().spectrum);
  if (u.shared_table) {
    u.strings = in.front().spectrum.strings();
    u.meets.assign(in.size(), in.front().spectrum.element_count() > 0);
    return u;
  }
  u.meets.assign(in.size(), 0);
  std::unordered_map<std::string, std::uint32_t> index;
  std::vector<std::size_t> first_input;  // per element first met: its input
  std::vector<ElementOccurrence> first_seen;
  std::vector<std::vector<std::uint32_t>> output_of(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Spectrum& s = in[i].spectrum;
    output_of[i].resize(s.element_count());
    for (std::size_t e = 0; e < s.element_count(); ++e) {
      auto [it, added] = index.try_emplace(element_identity(s, e), static_cast<std::uint32_t>(first_seen.size()));
      if (added) {
        first_seen.push_back({&s, e});
        first_input.push_back(i);
      } else {
        const std::size_t o = first_input[it->second];
        if (o != i) u.meets[i] = 1;
        merge::check_same_element(in, o, first_seen[it->second].element, i, e);
      }
      output_of[i][e] = it->second;
    }
  }
  const std::vector<std::uint32_t> order = union_element_order(
      first_seen, std::all_of(in.begin(), in.end(), [](const Input& i) { return sorted_by_location(i.spectrum); }));
  std::vector<std::uint32_t> position(order.size());
  for (std::size_t p = 0; p < order.size(); ++p) position[order[p]] = static_cast<std::uint32_t>(p);

  for (const auto k : order) {
    const Spectrum& s = *first_seen[k].spectrum;
    const ElementRecord& r = s.element(first_seen[k].element);
    ElementRecord out = r;
    out.file = u.strings.intern(s.strings()[r.file]);
    out.function = u.strings.intern(s.strings()[r.function]);
    out.name = r.name ? u.strings.intern(s.strings()[r.name]) : 0;
    u.records.push_back(out);
  }
  u.local_of.assign(in.size(), std::vector<std::uint32_t>(order.size(), kNone));
  for (std::size_t i = 0; i < in.size(); ++i)
    for (std::size_t e = 0; e < output_of[i].size(); ++e) u.local_of[i][position[output_of[i][e]]] = static_cast<std::uint32_t>(e);
  for (std::size_t e = 0; e < order.size(); ++e)
    for (std::size_t i = 0; i < in.size(); ++i)
      if (u.local_of[i][e] == kNone) {
        ++u.partial;
        break;
      }
  return u;
}

// ---- tests -----------------------------------------------------------------------------

struct TestUnion {
  std::vector<TestCase> tests;
  std::vector<std::vector<std::uint32_t>> output_of;  // [input][local test] -> output test
  bool disjoint = true;                               // no test name in two inputs
  std::vector<char> meets;                            // [input]: has a test of an earlier one
  std::size_t shared = 0, flaky_shared = 0;
};

// Tests met in several inputs are joined by the union rule (spectrum_union.h), their
// runtimes summed: each input's run took its time.
TestUnion unite_tests(std::vector<Input>& in) {
  TestUnion u;
  std::unordered_map<std::string, std::uint32_t> index;
  std::vector<TestRuns> runs;
  u.meets.assign(in.size(), 0);
  for (std::size_t i = 0; i < in.size(); ++i) {
    Input& input = in[i];
    const std::size_t before = runs.size();  // tests of earlier inputs have lower ids
    input.test_base = static_cast<std::uint32_t>(runs.size());
    auto& map = u.output_of.emplace_back();
    for (const TestCase& t : input.spectrum.tests()) {
      auto [it, added] = index.try_emplace(t.name, static_cast<std::uint32_t>(runs.size()));
      // Within one input a name is one test: two records of it are not runs to join.
      if (!added && it->second >= before)
        throw Error(input.name, 0, "test '" + excerpt(t.name) + "' appears twice; the tests of one spectrum have "
                                   "distinct names (repeated runs are joined across inputs: dlfl merge A B)");
      map.push_back(it->second);
      if (added) {
        runs.emplace_back().add(t);
        continue;
      }
      u.disjoint = false;
      if (it->second < before) u.meets[i] = 1;
      runs[it->second].add(t);
    }
  }
  u.tests.reserve(runs.size());
  for (auto& r : runs) {
    u.shared += r.runs() > 1;
    u.flaky_shared += r.flaky();
    u.tests.push_back(std::move(r).joined(RunTimeRule::total));
  }
  return u;
}

// ---- rows ------------------------------------------------------------------------------

// Appends the output test ids covering output element `e` to `row` (unsorted when tests
// are shared).
void gather_row(const std::vector<Input>& in, const ElementUnion& elements, const TestUnion& tests, std::size_t e,
                std::vector<std::uint32_t>& row) {
  row.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::uint32_t local = elements.local(i, e);
    if (local == kNone) continue;
    const Coverage& c = in[i].spectrum.coverage();
    if (tests.disjoint) {
      const std::uint32_t base = in[i].test_base;
      if (c.is_dense()) {
        for (const auto t : c.tests_of(local)) row.push_back(base + t);
      } else {
        const auto ids = c.sparse_tests_of(local);
        const std::size_t at = row.size();
        row.resize(at + ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k) row[at + k] = base + ids[k];
      }
    } else {
      for (const auto t : c.tests_of(local)) row.push_back(tests.output_of[i][t]);
    }
  }
  if (!tests.disjoint) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
}

// Shards of one collection stored sparse (disjoint tests, one element table; the common
// case): an output row is the inputs' rows one after the other, test ids shifted.
struct ShardRows {
  const std::uint64_t* offsets;
  const std::uint32_t* ids;
  std::uint64_t nnz;
  std::uint32_t base;
};

// Empty unless every input is such a shard and `wanted`.
std::vector<ShardRows> shard_rows(const std::vector<Input>& in, const ElementUnion& elements, bool wanted) {
  std::vector<ShardRows> shards;
  const bool all = std::all_of(in.begin(), in.end(), [](const Input& i) { return !i.spectrum.coverage().is_dense(); });
  if (!wanted || !elements.shared_table || !all) return shards;
  for (const auto& i : in) {
    const Coverage& c = i.spectrum.coverage();
    shards.push_back({c.offsets().data(), c.test_ids().data(), c.nnz(), i.test_base});
  }
  return shards;
}

// The output rows of elements [first, last) into `out` (resized; `offsets` are the
// output's). Rows are short (a few ids per shard): each is copied 8 ids at a time into
// slack past its end, which the next row overwrites, so the copy is a fixed-width vector
// move instead of a loop with a tail per shard and element.
void copy_rows(const std::vector<ShardRows>& shards, std::size_t first, std::size_t last,
               std::span<const std::uint64_t> offsets, std::vector<std::uint32_t>& out) {
  constexpr std::size_t kWidth = 8;
  const std::uint64_t size = offsets[last] - offsets[first];
  out.resize(size + kWidth);
  std::uint32_t* to = out.data();
  for (std::size_t e = first; e < last; ++e) {
    // The inputs' offsets were checked and added up to `offsets` before; a file changed on
    // disk since (the mappings are not copies) must not overrun `out`.
    std::uint64_t n = 0;
    for (const auto& s : shards) n += s.offsets[e + 1] - s.offsets[e];
    if (n != offsets[e + 1] - offsets[e]) throw Error("dlfl merge: an input changed while it was merged");
    for (const auto& s : shards) {
      std::uint64_t k = s.offsets[e];
      const std::uint64_t end = s.offsets[e + 1];
      for (; k < end && k + kWidth <= s.nnz; k += kWidth, to += kWidth)
        for (std::size_t j = 0; j < kWidth; ++j) to[j] = s.base + s.ids[k + j];
      for (; k < end; ++k) *to++ = s.base + s.ids[k];  // the last ids of the file
      to -= k - end;  // back over the slack written past this row
    }
  }
  out.resize(size);
}

std::uint64_t row_length(const Coverage& c, std::uint32_t local) {
  return c.is_dense() ? c.tests_of(local).size() : c.sparse_tests_of(local).size();
}

// The failing rows of the output, test-major.
struct FailingRows {
  std::vector<std::uint32_t> tests;   // output ids, ascending
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint32_t> elements;
};

// Copy mode: disjoint tests and every input has its failing rows: the output's are the
// inputs' rows, test ids shifted, element ids mapped.
FailingRows copy_failing_rows(const std::vector<Input>& in, const ElementUnion& elements) {
  FailingRows f;
  f.offsets.push_back(0);
  std::vector<std::uint32_t> output_of;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const FailingCoverage& rows = *in[i].spectrum.failing_coverage();
    if (!elements.shared_table) {
      output_of.assign(in[i].spectrum.element_count(), kNone);
      for (std::size_t e = 0; e < elements.local_of[i].size(); ++e)
        if (elements.local_of[i][e] != kNone) output_of[elements.local_of[i][e]] = static_cast<std::uint32_t>(e);
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
      f.tests.push_back(in[i].test_base + rows.tests()[r]);
      const auto row = rows.row(r);
      const std::size_t at = f.elements.size();
      if (elements.shared_table) {
        f.elements.insert(f.elements.end(), row.begin(), row.end());
      } else {
        for (const auto e : row) f.elements.push_back(output_of[e]);
        std::sort(f.elements.begin() + static_cast<std::ptrdiff_t>(at), f.elements.end());
      }
      f.offsets.push_back(f.elements.size());
    }
  }
  return f;
}

// Where a merge into another format than native puts its native image first: a hidden
// name beside `output`, written through an AtomicFile that is never committed.
fs::path native_beside(const fs::path& output) {
  const fs::path parent = output.has_parent_path() ? output.parent_path() : fs::path(".");
  // Appended piece by piece: g++ 12 -O3 warns (-Wrestrict, a false positive) on the
  // chain of operator+ once this is inlined.
  std::string name = ".";
  name += output.filename().string();
  name += ".merge.dlfl";
  return parent / name;
}

// Everything known of the output before its image is written.
struct MergePlan {
  SpectrumOrigin origin;
  ElementUnion elements;
  TestUnion tests;
  std::size_t element_count = 0, test_count = 0;
  std::vector<std::uint32_t> failing_rank;   // [output test] -> its row among the failing, or kNone
  std::vector<std::uint32_t> failing_tests;  // output ids, ascending
  bool copy_failing = false;  // the failing rows are the inputs' (copy_failing_rows)
  std::vector<ShardRows> shards;  // non-empty: rows are copied shard by shard (copy_rows)
  std::vector<std::uint64_t> offsets;  // the output's row offsets
  FailingRows failing;  // copied, or offsets counted and elements sized to fill
  bool dense = false;
  std::size_t words = 0;  // per dense row

  std::uint64_t nnz() const { return offsets.back(); }
};

MergePlan unite(std::vector<Input>& in, const MergeOptions& options) {
  MergePlan p;
  p.origin = merged_origin(in);
  p.elements = unite_elements(in);
  p.tests = unite_tests(in);
  if (!options.allow_disjoint) check_related(in, p.elements.meets, p.tests.meets);
  p.element_count = p.elements.shared_table ? in.front().spectrum.element_count() : p.elements.records.size();
  p.test_count = p.tests.tests.size();
  p.failing_rank.assign(p.test_count, kNone);
  for (std::size_t t = 0; t < p.test_count; ++t)
    if (p.tests.tests[t].failed()) {
      p.failing_rank[t] = static_cast<std::uint32_t>(p.failing_tests.size());
      p.failing_tests.push_back(static_cast<std::uint32_t>(t));
    }
  p.copy_failing = p.tests.disjoint && std::all_of(in.begin(), in.end(), [](const Input& i) {
    return i.spectrum.failing_coverage() != nullptr;
  });
  p.shards = shard_rows(in, p.elements, p.copy_failing);
  return p;
}

// Row lengths: added up from the inputs' when tests are disjoint, else counted; the
// failing rows copied, or their lengths counted.
void lay_out_rows(std::vector<Input>& in, MergePlan& p, StreamedInputs& checks, std::vector<std::uint32_t>& row) {
  p.offsets.assign(p.element_count + 1, 0);
  if (!p.shards.empty()) {
    // Output offset e = the sum of the shards' offsets e (each starts at 0): one
    // vectorizable pass per shard, a range at a time, each range checked first (on the
    // other core, a range or two ahead).
    CheckAhead offsets_checked(p.element_count, kReleaseRange, 2,
                               [&](std::size_t end) { checks.offsets_through(end); });
    for (std::size_t e = 0; e < p.element_count; e += kReleaseRange) {
      const std::size_t last = std::min(p.element_count, e + kReleaseRange);
      offsets_checked.wait_through(last);
      for (const auto& shard : p.shards)
        for (std::size_t k = e + 1; k <= last; ++k) p.offsets[k] += shard.offsets[k];
    }
  } else if (p.copy_failing) {
    for (std::size_t e = 0; e < p.element_count; ++e) {
      checks.offsets_at(e);
      std::uint64_t n = 0;
      for (std::size_t i = 0; i < in.size(); ++i)
        if (const auto local = p.elements.local(i, e); local != kNone) n += row_length(in[i].spectrum.coverage(), local);
      p.offsets[e + 1] = p.offsets[e] + n;
    }
  }
  if (p.copy_failing) {
    for (const auto& i : in)
      if (i.mapped && !i.spectrum.coverage().is_dense()) release(i.spectrum.coverage().offsets());
    p.failing = copy_failing_rows(in, p.elements);
  } else {
    p.failing.tests = p.failing_tests;
    p.failing.offsets.assign(p.failing_tests.size() + 1, 0);
    for (std::size_t e = 0; e < p.element_count; ++e) {
      checks.rows_at(e);
      gather_row(in, p.elements, p.tests, e, row);
      p.offsets[e + 1] = p.offsets[e] + row.size();
      for (const auto t : row)
        if (p.failing_rank[t] != kNone) ++p.failing.offsets[p.failing_rank[t] + 1];
    }
    for (std::size_t r = 0; r < p.failing_tests.size(); ++r) p.failing.offsets[r + 1] += p.failing.offsets[r];
    p.failing.elements.resize(p.failing.offsets.back());
  }
  p.dense = dense_is_smaller(p.test_count, p.element_count, p.nnz());
  p.words = (p.test_count + 63) / 64;
}

// The coverage section(s): each output row, in element order; the failing rows filled
// along when they are not copied.
void write_coverage(ImageStreamWriter& image, std::vector<Input>& in, MergePlan& p, StreamedInputs& checks,
                    std::vector<std::uint32_t>& row) {
  std::vector<std::uint64_t> fill(p.copy_failing ? 0 : p.failing.offsets.size());
  if (!p.copy_failing) std::copy(p.failing.offsets.begin(), p.failing.offsets.end(), fill.begin());
  if (!p.shards.empty() && !p.dense) {
    // Shards: each range's rows are checked and hashed on the other core, a few ranges
    // ahead (still in the shared cache when copied), while this one copies and writes.
    CheckAhead rows_checked(p.element_count, kCheckRange, 4, [&](std::size_t end) { checks.rows_through(end); });
    for (std::size_t e = 0; e < p.element_count; e += kCheckRange) {
      checks.release_through(e);
      const std::size_t last = std::min(p.element_count, e + kCheckRange);
      rows_checked.wait_through(last);
      copy_rows(p.shards, e, last, p.offsets, row);
      image.write(std::span<const std::uint32_t>(row));
    }
    return;
  }
  for (std::size_t e = 0; e < p.element_count; ++e) {
    checks.rows_at(e);
    checks.release_through(e);
    gather_row(in, p.elements, p.tests, e, row);
    if (!p.copy_failing)
      for (const auto t : row)
        if (p.failing_rank[t] != kNone) p.failing.elements[fill[p.failing_rank[t]]++] = static_cast<std::uint32_t>(e);
    if (p.dense) {
      std::uint64_t* bits = image.reserve<std::uint64_t>(p.words);
      std::fill(bits, bits + p.words, 0);
      for (const auto t : row) bits[t / 64] |= std::uint64_t{1} << (t % 64);
    } else {
      image.write(std::span<const std::uint32_t>(row));
    }
  }
}

// The native image of the plan, section by section.
void write_image(std::ostream& out, std::vector<Input>& in, MergePlan& p, StreamedInputs& checks,
                 std::vector<std::uint32_t>& row) {
  auto [test_records, text] = test_table(p.tests.tests);
  const std::span<const ElementRecord> records = p.elements.shared_table
                                                     ? in.front().spectrum.elements()
                                                     : std::span<const ElementRecord>(p.elements.records);
  const std::uint64_t map_id[1] = {p.origin.probe_map_id};

  SectionItems items{};
  items[string_blob] = p.elements.strings.blob().size();
  items[string_offsets] = p.elements.strings.offsets().size();
  items[native::elements] = records.size();
  items[native::tests] = test_records.size();
  items[test_text] = text.size();
  items[coverage_offsets] = p.dense ? 0 : p.offsets.size();
  items[coverage_indices] = p.dense ? 0 : p.nnz();
  items[coverage_bits] = p.dense ? p.element_count * p.words : 0;
  items[source_root] = p.origin.source_root.size();
  items[probe_map_id] = p.origin.probe_map_id ? 1 : 0;
  items[native::failing_tests] = p.failing.tests.size();
  items[failing_offsets] = p.failing.offsets.size();
  items[failing_elements] = p.failing.elements.size();

  ImageStreamWriter image(out, items);
  image.begin(string_blob);
  image.write(p.elements.strings.blob());
  image.begin(string_offsets);
  image.write(p.elements.strings.offsets());
  image.begin(native::elements);
  image.write(records);
  image.begin(native::tests);
  image.write(std::span<const NativeTestRecord>(test_records));
  image.begin(test_text);
  image.write(text.data(), text.size());
  image.begin(p.dense ? coverage_bits : coverage_offsets);
  if (!p.dense) {
    image.write(std::span<const std::uint64_t>(p.offsets));
    image.begin(coverage_indices);
  }
  write_coverage(image, in, p, checks, row);
  image.begin(source_root);
  image.write(p.origin.source_root.data(), p.origin.source_root.size());
  image.begin(probe_map_id);
  image.write(std::span<const std::uint64_t>(map_id, items[probe_map_id]));
  image.begin(native::failing_tests);
  image.write(std::span<const std::uint32_t>(p.failing.tests));
  image.begin(failing_offsets);
  image.write(std::span<const std::uint64_t>(p.failing.offsets));
  image.begin(failing_elements);
  image.write(std::span<const std::uint32_t>(p.failing.elements));
  image.finish();
}

// Writes the merged native image into `file`, an AtomicFile for `target` created once the
// plan stands (a bad input is reported before an unwritable output), and finishes it:
// the image is complete under its temp_path(), for the caller to commit or read back.
MergeStats merge_to_native(std::vector<Input>& in, const fs::path& target, const MergeOptions& options,
                           std::optional<AtomicFile>& file) {
  MergePlan plan = unite(in, options);
  StreamedInputs checks(in, plan.elements.shared_table);
  std::vector<std::uint32_t> row;
  lay_out_rows(in, plan, checks, row);

  file.emplace(target);
  try {
    write_image(file->stream(), in, plan, checks, row);
  } catch (const Error&) {
    // A failed stream is reported by finish() with errno; a logic error propagates.
    if (file->stream()) throw;
  }
  // The output is complete only when every input passed every check.
  checks.finish();
  file->finish();

  MergeStats stats;
  stats.inputs = in.size();
  stats.tests = plan.test_count;
  stats.failing = plan.failing_tests.size();
  stats.shared_tests = plan.tests.shared;
  stats.flaky_shared = plan.tests.flaky_shared;
  stats.elements = plan.element_count;
  stats.partial_elements = plan.elements.partial;
  stats.covered_pairs = plan.nnz();
  return stats;
}

}  // namespace

MergeStats merge_spectra(std::span<const fs::path> inputs, const fs::path& output, SpectrumFormat format,
                         const MergeOptions& options) {
  if (inputs.empty()) throw Error("nothing to merge: give at least one input spectrum");
  // One file named twice is one input: its runs are not repeated runs (merge X X is X).
  std::vector<fs::path> distinct;
  std::set<std::pair<dev_t, ino_t>> seen;
  for (const auto& path : inputs) {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && !seen.emplace(st.st_dev, st.st_ino).second) continue;
    distinct.push_back(path);
  }
  // Native inputs are mapped and checked as they are merged; their pages are dropped once
  // merged.
  std::vector<Input> in = merge::read_inputs(distinct);
  std::optional<AtomicFile> file;
  if (format == SpectrumFormat::native) {
    const MergeStats stats = merge_to_native(in, output, options, file);
    file->commit();
    return stats;
  }
  // Other formats hold the whole spectrum in memory anyway: merge into a native temporary
  // beside the output, then convert it. The temporary is io's (AtomicFile): removed with
  // `file`, on a signal, or by a later run once a killed process is gone.
  const MergeStats stats = merge_to_native(in, native_beside(output), options, file);
  in.clear();
  write_spectrum(read_native(file->temp_path()), output, format);
  return stats;
}

}  // namespace dlfl::io
