// The gcov backend: per-test GCOV_PREFIX directories, `gcov --json-format --stdout` on
// each test's .gcda files with the build tree's .gcno files linked beside them.
//
// Why a prefix per test: libgcov merges into an existing .gcda at exit, so tests that
// share the build tree's .gcda files can neither run in parallel nor be told apart.
// GCOV_PREFIX=DIR with GCOV_PREFIX_STRIP=0 makes every process of a test write
// DIR/<absolute path of the .gcda> instead (gcc manual, "Cross-profiling"). gcov finds
// the notes file by swapping the data file's suffix, so a symlink DIR/....gcno → build
// tree .gcno is all it needs; `-o` would move both.
//
// Repeated data is read once: most of a test's .gcda files are those of objects it does
// not exercise, byte-identical from test to test; from the second sighting of a version
// on, its parsed coverage is reused instead of running gcov (on tensorlite's 16 test
// files this halved the CPU time of collection).
//
// Limits, by libgcov's design: the counters live in the process and are written by an
// exit handler, so a test killed by a signal (crash, our timeout) leaves no .gcda.
#include <fmt/format.h>

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "dlfl/collect/binary_probe.h"
#include "dlfl/collect/coverage_backend.h"
#include "dlfl/collect/coverage_formats.h"
#include "dlfl/collect/process.h"
#include "dlfl/error.h"
#include "tool_lookup.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

// gcov's stderr lines that mean its output cannot be trusted (gcc/gcov.cc messages).
// Anything else it prints ("version 'B23*', prefer 'B22*'" within one major version,
// which check_notes already vetted; "source file is newer") leaves the counts intact and
// is ignored.
constexpr std::string_view kFatalGcovMessages[] = {"cannot open",    "not a gcov",  "stamp mismatch",
                                                   "profile mismatch", "corrupted", "overflowed"};

// Files per gcov invocation: far below ARG_MAX even with long build paths.
constexpr std::size_t kGcovBatch = 256;

// What was learned about one version of one object's .gcda: how often it was seen and,
// from the second sighting on, what gcov made of it.
struct CachedData {
  std::size_t seen = 0;
  std::shared_ptr<const std::vector<FileCoverage>> files;
};

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::move(ss).str();
}

// A hash of a .gcda that ignores its object summary. libgcov writes the program-wide
// maximum counter (sum_max) into every object's summary (libgcov-driver.c,
// compute_summary), so without this no two tests' files would ever be equal. The gcc ≥ 10
// layout: magic, version, stamp, checksum, then the summary record: tag 0xa1000000,
// length 8, runs, sum_max. gcov's line counts do not depend on it. Other layouts are
// hashed whole (no reuse, still correct).
std::uint64_t content_hash(const std::string& object, std::string& content) {
  constexpr std::size_t kSummary = 16;
  std::uint32_t tag = 0, length = 0;
  if (content.size() >= kSummary + 16) {
    std::memcpy(&tag, content.data() + kSummary, 4);
    std::memcpy(&length, content.data() + kSummary + 4, 4);
    if (tag == 0xa1000000u && length == 8) std::memset(content.data() + kSummary + 8, 0, 8);
  }
  // Seeded with the object's path: equal contents of two objects are different data.
  return XXH3_64bits_withSeed(content.data(), content.size(), XXH3_64bits(object.data(), object.size()));
}

class GcovBackend final : public CoverageBackend {
 public:
  GcovBackend(std::string tool, ToolVersion version, fs::path source_prefix)
      : tool_(std::move(tool)), version_(std::move(version)), source_prefix_(std::move(source_prefix)) {
    if (source_prefix_.empty()) prefix_state_ = PrefixState::unusable;
  }

  CoverageKind kind() const noexcept override { return CoverageKind::gcov; }
  bool keeps_coverage_of_killed_tests() const noexcept override { return false; }
  std::string description() const override { return fmt::format("{} ({})", version_.line, tool_); }

  std::vector<std::string> environment(const fs::path& dir, const std::string& /*test*/) const override {
    return {"GCOV_PREFIX=" + dir.string(), "GCOV_PREFIX_STRIP=0"};
  }

  std::optional<CoverageReport> read(const fs::path& dir, const std::string& test,
                                     const std::atomic<bool>* cancel) const override {
    std::vector<std::string> data_files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->path().extension() == ".gcda" && it->is_regular_file(ec)) data_files.push_back(it->path().string());
    if (ec) throw Error(dir.string(), 0, fmt::format("test {}: cannot list its coverage files: {}", test, ec.message()));
    if (data_files.empty()) return std::nullopt;
    std::sort(data_files.begin(), data_files.end());

    CoverageReport report;
    std::vector<std::string> to_run;                            // .gcda files gcov must read
    std::unordered_map<std::string, std::uint64_t> cache_key_of;  // of those seen twice, to store
    for (const auto& data : data_files) {
      // DIR + "/abs/build/x.gcda" ← "/abs/build/x.gcda": the build tree's notes file.
      const fs::path original = fs::path("/") / fs::path(data).lexically_relative(dir);
      auto content = read_file(data);
      if (!content) throw Error(data, 0, fmt::format("test {}: cannot read its coverage data", test));
      const std::uint64_t key = content_hash(original.string(), *content);
      {
        std::lock_guard lock(mutex_);
        CachedData& cached = cache_[key];
        if (cached.files) {
          report.files.insert(report.files.end(), cached.files->begin(), cached.files->end());
          continue;
        }
        if (++cached.seen == 2) cache_key_of.emplace(data, key);
      }
      const fs::path notes = fs::path(original).replace_extension(".gcno");
      check_notes(notes, test);
      const fs::path link = fs::path(data).replace_extension(".gcno");
      fs::create_symlink(notes, link, ec);
      if (ec && ec != std::errc::file_exists)
        throw Error(link.string(), 0, fmt::format("test {}: cannot link the notes file: {}", test, ec.message()));
      to_run.push_back(data);
    }

    const std::string origin = fmt::format("gcov output for test {}", test);
    const std::size_t first_new = report.files.size();
    std::vector<std::string> source_of;  // parallel to report.files: the .gcda of each entry
    source_of.resize(first_new);
    for (std::size_t first = 0; first < to_run.size(); first += kGcovBatch) {
      ProcessSpec spec;
      spec.argv = {tool_, "--json-format", "--stdout"};
      const bool prefix_only = prefix_state_.load() == PrefixState::usable;
      if (prefix_only) {
        // Files outside the source root are dropped by gcov itself (-r keeps only paths
        // that are relative after removing the -s prefix): no JSON for libstdc++ and
        // GoogleTest instantiations, often 90 % of the output.
        spec.argv.insert(spec.argv.end(), {"--relative-only", "--source-prefix", source_prefix_.string()});
      }
      const auto last = std::min(to_run.size(), first + kGcovBatch);
      spec.argv.insert(spec.argv.end(), to_run.begin() + static_cast<std::ptrdiff_t>(first),
                       to_run.begin() + static_cast<std::ptrdiff_t>(last));
      spec.cwd = dir;
      spec.merge_stderr = false;
      spec.stdout_limit = SIZE_MAX;
      spec.timeout = std::chrono::minutes(10);
      const ProcessResult r = run_process(spec, cancel);
      if (r.end == ProcessEnd::cancelled) return std::nullopt;
      check_gcov_errors(r, test, spec.timeout);
      const std::size_t before = report.files.size();
      parse_gcov_json(r.out, origin, report, &source_of);
      if (!prefix_only) check_prefix(report, before);
    }
    // Objects whose data repeats (every test runs the same static initializers of the
    // test files it does not exercise) are read by gcov twice at most.
    if (!cache_key_of.empty()) {
      std::unordered_map<std::string, std::vector<FileCoverage>> by_data;
      for (std::size_t i = first_new; i < report.files.size(); ++i)
        if (cache_key_of.contains(source_of[i])) by_data[source_of[i]].push_back(report.files[i]);
      std::lock_guard lock(mutex_);
      for (auto& [data, key] : cache_key_of) {
        auto& files = by_data[data];
        cache_[key].files = std::make_shared<const std::vector<FileCoverage>>(std::move(files));
      }
    }
    return report;
  }

 private:
  // Once per notes file: present and written by the gcc this gcov belongs to.
  void check_notes(const fs::path& notes, const std::string& test) const {
    const std::string key = notes.string();
    {
      std::lock_guard lock(mutex_);
      if (checked_.contains(key)) return;
    }
    std::error_code ec;
    if (!fs::is_regular_file(notes, ec))
      throw Error(key, 0,
                  fmt::format("missing: test {} wrote coverage data for it, and gcov needs the build tree's notes "
                              "(.gcno) files (was the build directory moved or cleaned?)",
                              test));
    const GcovStamp stamp = read_gcov_stamp(notes);
    if (version_.major != 0 && stamp.major != 0 && stamp.major != version_.major)
      throw Error(key, 0,
                  fmt::format("written by gcc {} (version stamp '{}') but {} is gcov {}: use the gcov of the same "
                              "gcc (e.g. --gcov gcov-{})",
                              stamp.major, stamp.stamp, tool_, version_.major, stamp.major));
    std::lock_guard lock(mutex_);
    checked_.insert(key);
  }

  // gcov matches the -s prefix against the paths as compiled, PathFilter against their
  // real paths: when the build used another spelling of the root (a symlink), -r would
  // drop files the filter keeps. The first full output decides whether -r is safe.
  void check_prefix(const CoverageReport& report, std::size_t first) const {
    if (prefix_state_.load() != PrefixState::unchecked) return;
    const std::string prefix = source_prefix_.string() + "/";
    bool safe = true;
    for (std::size_t i = first; i < report.files.size() && safe; ++i) {
      const FileCoverage& f = report.files[i];
      fs::path raw = fs::path(f.path).is_relative() ? fs::path(f.base) / f.path : fs::path(f.path);
      const std::string spelled = raw.lexically_normal().string();
      std::error_code ec;
      const fs::path real = fs::canonical(raw, ec);
      if (!ec && real.string().starts_with(prefix) != spelled.starts_with(prefix)) safe = false;
    }
    PrefixState expected = PrefixState::unchecked;
    prefix_state_.compare_exchange_strong(expected, safe ? PrefixState::usable : PrefixState::unusable);
  }

  void check_gcov_errors(const ProcessResult& r, const std::string& test, std::chrono::milliseconds timeout) const {
    std::string_view err = r.err;
    std::string_view first_fatal;
    while (!err.empty()) {
      const auto nl = err.find('\n');
      const auto line = err.substr(0, nl);
      err = nl == std::string_view::npos ? std::string_view{} : err.substr(nl + 1);
      for (const auto fatal : kFatalGcovMessages)
        if (line.find(fatal) != std::string_view::npos && first_fatal.empty()) first_fatal = line;
    }
    if (!first_fatal.empty())
      throw Error(fmt::format("coverage data of test {} is unreadable: {}: {}", test, tool_, first_fatal));
    if (!r.ok())
      throw Error(fmt::format("coverage data of test {}: {} failed ({}){}", test, tool_, describe_end(r, timeout),
                              r.err.empty() ? "" : ": " + r.err.substr(0, r.err.find('\n'))));
  }

  enum class PrefixState : unsigned char { unchecked, usable, unusable };
  std::string tool_;
  ToolVersion version_;
  fs::path source_prefix_;
  mutable std::atomic<PrefixState> prefix_state_{PrefixState::unchecked};
  mutable std::mutex mutex_;
  mutable std::unordered_set<std::string> checked_;
  // Key: content_hash(). Holds a count per distinct version seen and the parsed coverage
  // of versions seen twice (those tend to recur).
  mutable std::unordered_map<std::uint64_t, CachedData> cache_;
};

}  // namespace

std::unique_ptr<CoverageBackend> make_gcov_backend(const CoverageTools& tools, const fs::path& sample_gcno,
                                                   const fs::path& source_root) {
  int gcc_major = 0;
  std::string stamp;
  if (!sample_gcno.empty()) {
    const GcovStamp s = read_gcov_stamp(sample_gcno);
    gcc_major = s.major;
    stamp = s.stamp;
  }
  std::string tool = tools.gcov.empty() ? find_versioned("gcov", gcc_major) : find_program(tools.gcov);
  if (tool.empty())
    throw Error(tools.gcov.empty()
                    ? std::string("gcov is not on PATH: install gcc's gcov (Debian: the gcc package) or pass --gcov PATH")
                    : fmt::format("--gcov {}: no such executable", tools.gcov));
  ToolVersion version = query_version(tool);
  if (version.major == 0)
    throw Error(fmt::format("{} does not look like gcov (--version says '{}')", tool, version.line));
  if (gcc_major != 0 && version.major != gcc_major)
    throw Error(sample_gcno.string(), 0,
                fmt::format("written by gcc {} (version stamp '{}') but {} is gcov {}: install gcov-{} or pass "
                            "--gcov PATH",
                            gcc_major, stamp, tool, version.major, gcc_major));
  // The real path of the root; whether gcov may filter with it is checked on the first
  // output (GcovBackend::check_prefix).
  fs::path prefix;
  if (!source_root.empty()) {
    std::error_code ec;
    prefix = fs::canonical(source_root, ec);
    if (ec) prefix.clear();
  }
  return std::make_unique<GcovBackend>(std::move(tool), std::move(version), std::move(prefix));
}

}  // namespace dlfl::collect
