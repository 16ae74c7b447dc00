// Runtime-based collection: one run of an instrumented gtest binary, per-test slots read
// from the runtime's snapshot file, restarts on the remaining tests after a crash.
#include "dlfl/collect/runtime_collector.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "dlfl/collect/path_filter.h"
#include "dlfl/collect/process.h"
#include "dlfl/collect/test_outcome.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "dlfl/instrument/probe_map.h"
#include "dlfl_rt/dlfl_rt.h"
#include "dlfl_rt/dlfl_rt_file.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Longest --gtest_filter we pass: one argument may not exceed 128 KiB on Linux.
constexpr std::size_t kMaxFilter = 100 * 1024;

// A read-only mapping of a whole file.
class MappedFile {
 public:
  explicit MappedFile(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(path.string(), 0, "cannot open the runtime snapshot: " + std::string(std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      size_ = static_cast<std::size_t>(st.st_size);
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      data_ = p == MAP_FAILED ? nullptr : static_cast<const unsigned char*>(p);
    }
    ::close(fd);
    if (!data_) throw Error(path.string(), 0, "cannot map the runtime snapshot (empty file?)");
  }
  ~MappedFile() { ::munmap(const_cast<unsigned char*>(data_), size_); }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const unsigned char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

std::vector<std::uint32_t> reached(const unsigned char* map, std::uint64_t count) {
  std::vector<std::uint32_t> ids;
  for (std::uint64_t i = 0; i < count; ++i)
    if (map[i]) ids.push_back(static_cast<std::uint32_t>(i));
  return ids;
}

// The test running in the snapshot file right now and since when (CLOCK_MONOTONIC ns),
// read with two small preads; {0, 0} when none runs or the file does not exist yet.
std::pair<std::uint32_t, std::uint64_t> running_test(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {0, 0};
  dlfl_rt_file_header h{};
  dlfl_rt_slot_header s{};
  std::pair<std::uint32_t, std::uint64_t> result{0, 0};
  if (::pread(fd, &h, sizeof h, 0) == static_cast<ssize_t>(sizeof h) && std::memcmp(h.magic, DLFL_RT_MAGIC, 8) == 0 &&
      h.current_slot != 0 &&
      ::pread(fd, &s, sizeof s, static_cast<off_t>(h.header_size + h.current_slot * h.slot_stride)) ==
          static_cast<ssize_t>(sizeof s) &&
      s.state == DLFL_RT_SLOT_RUNNING)
    result = {h.current_slot, s.begin_ns};
  ::close(fd);
  return result;
}

std::uint64_t monotonic_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(t.tv_nsec);
}

// A fresh scratch directory, removed with the object unless kept.
class WorkDir {
 public:
  WorkDir(const fs::path& parent, bool keep) : keep_(keep) {
    std::random_device rd;
    path_ = (parent.empty() ? fs::temp_directory_path() : parent) /
            ("dlfl-runtime-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    fs::create_directories(path_);
  }
  ~WorkDir() {
    std::error_code ec;
    if (!keep_) fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool keep_;
};

// --gtest_filter values selecting exactly `remaining` (in order), each short enough for one
// argument: the positive list, else the negative list of everything else, else chunks.
std::vector<std::string> filters_for(const std::vector<std::string>& remaining, const std::vector<std::string>& all) {
  auto join = [](auto begin, auto end) {
    std::string s;
    for (auto it = begin; it != end; ++it) s += (s.empty() ? "" : ":") + *it;
    return s;
  };
  std::string positive = join(remaining.begin(), remaining.end());
  if (positive.size() <= kMaxFilter) return {positive};
  const std::set<std::string> keep(remaining.begin(), remaining.end());
  std::vector<std::string> others;
  for (const auto& t : all)
    if (!keep.count(t)) others.push_back(t);
  std::string negative = "*-" + join(others.begin(), others.end());
  if (negative.size() <= kMaxFilter) return {negative};
  std::vector<std::string> chunks;
  std::string chunk;
  for (const auto& t : remaining) {
    if (!chunk.empty() && chunk.size() + t.size() + 1 > kMaxFilter) chunks.push_back(std::move(chunk)), chunk.clear();
    chunk += (chunk.empty() ? "" : ":") + t;
  }
  if (!chunk.empty()) chunks.push_back(chunk);
  return chunks;
}

struct TestRecord {
  TestCase test;
  std::vector<std::uint32_t> probes;
  bool skipped = false;
};

std::string tail(const std::string& text, std::size_t n) {
  return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}

// The probe map turned into spectrum elements: one per (file, line), and per probe the
// elements it covers.
struct ElementIndex {
  SpectrumBuilder builder;
  std::vector<std::vector<std::uint32_t>> elements_of_probe;
};

// Per probe map file, its element file name; nullopt when the path filter leaves it out.
std::vector<std::optional<std::string>> element_files(const instrument::ProbeMap& map, const RuntimeCollectOptions& o) {
  std::optional<PathFilter> filter;
  if (o.paths) {
    PathFilterOptions paths = *o.paths;
    if (paths.source_root.empty()) paths.source_root = map.root;
    filter.emplace(std::move(paths));
  }
  std::vector<std::optional<std::string>> names;
  for (const auto& file : map.files) {
    const fs::path absolute = (fs::path(map.root) / file).lexically_normal();
    if (filter)
      names.push_back(filter->map(absolute.string()));
    else
      names.push_back(o.absolute_paths ? absolute.string() : file);
  }
  return names;
}

ElementIndex index_elements(const instrument::ProbeMap& map, const RuntimeCollectOptions& o) {
  ElementIndex index;
  const auto files = element_files(map, o);
  std::map<std::pair<std::string, std::uint32_t>, std::uint32_t> function_of_line;  // first site wins
  for (const auto& s : map.sites)
    if (files[s.file]) function_of_line.try_emplace({*files[s.file], s.line}, s.function);
  if (function_of_line.empty() && !map.sites.empty())
    throw Error("none of the " + std::to_string(map.files.size()) + " files of the probe map under " + map.root +
                " is left after the source root and the excludes: check --source-root and --exclude");
  std::map<std::pair<std::string, std::uint32_t>, std::uint32_t> element_of_line;
  for (const auto& [key, function] : function_of_line)  // ordered by (file, line)
    element_of_line[key] = index.builder.add_element(key.first, key.second, key.second, map.functions[function]);
  index.elements_of_probe.resize(map.probe_count);
  for (const auto& s : map.sites)
    if (files[s.file]) index.elements_of_probe[s.probe].push_back(element_of_line.at({*files[s.file], s.line}));
  return index;
}

// "A, B, C" and " and N more" past the limit, as collect() words it.
std::string name_list(const std::vector<std::string>& names, std::size_t limit = 10) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > limit) out += " and " + std::to_string(names.size() - limit) + " more";
  return out;
}

// "1 failing test", "3 failing tests".
std::string counted(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

RuntimeSnapshot read_runtime_snapshot(const fs::path& path) {
  const MappedFile file(path);
  const std::string name = path.string();
  if (file.size() < DLFL_RT_HEADER_SIZE) throw Error(name, 0, "truncated runtime snapshot (no header)");
  dlfl_rt_file_header h;
  std::memcpy(&h, file.data(), sizeof h);
  if (std::memcmp(h.magic, DLFL_RT_MAGIC, 8) != 0) throw Error(name, 0, "not a dlfl runtime snapshot");
  if (h.version != DLFL_RT_VERSION) throw Error(name, 0, "unsupported snapshot version " + std::to_string(h.version));
  if (h.slot_stride < DLFL_RT_SLOT_HEADER_SIZE + h.name_capacity + h.probe_count || h.header_size < sizeof h ||
      h.slot_count == 0 || h.header_size + static_cast<std::uint64_t>(h.slot_count) * h.slot_stride > file.size())
    throw Error(name, 0, "inconsistent runtime snapshot header");
  RuntimeSnapshot snap;
  snap.probe_count = h.probe_count;
  snap.map_id = h.map_id;
  snap.pid = h.pid;
  for (std::uint32_t i = 0; i < h.slot_count; ++i) {
    const unsigned char* slot = file.data() + h.header_size + static_cast<std::uint64_t>(i) * h.slot_stride;
    dlfl_rt_slot_header sh;
    std::memcpy(&sh, slot, sizeof sh);
    const unsigned char* map = slot + DLFL_RT_SLOT_HEADER_SIZE + h.name_capacity;
    if (i == 0) {
      snap.outside = reached(map, h.probe_count);
      continue;
    }
    if (sh.state != DLFL_RT_SLOT_RUNNING && sh.state != DLFL_RT_SLOT_ENDED) continue;
    RuntimeSlot s;
    const char* text = reinterpret_cast<const char*>(slot + DLFL_RT_SLOT_HEADER_SIZE);
    s.name.assign(text, ::strnlen(text, h.name_capacity));
    s.state = sh.state;
    s.outcome = sh.outcome;
    s.begin_ns = sh.begin_ns;
    s.end_ns = sh.end_ns;
    s.probes = reached(map, h.probe_count);
    snap.tests.push_back(std::move(s));
  }
  return snap;
}

RuntimeCollectResult collect_with_runtime(const RuntimeCollectOptions& o) {
  const auto started = Clock::now();
  const instrument::ProbeMap map = instrument::read_probe_map(o.probe_map);
  ElementIndex index = index_elements(map, o);

  // The listing run writes no snapshot: DLFL_RT_FILE is not set for it.
  std::vector<std::string> list_env = o.env;
  std::vector<std::string> all;
  for (auto& c : list_gtest_tests(o.gtest_binary, list_env)) all.push_back(c.name);
  std::vector<std::string> listed;
  for (const auto& t : all)
    if (o.filter.empty() || gtest_filter_matches(o.filter, t)) listed.push_back(t);
  if (listed.empty()) throw Error(o.gtest_binary.string(), 0, "no test matches the filter '" + o.filter + "'");

  RuntimeCollectResult result;
  result.stats.listed = listed.size();
  if (o.progress) o.progress->start(listed.size());
  const WorkDir work(o.work_dir, o.keep_work);
  std::map<std::string, TestRecord> records;
  std::vector<std::string> remaining = listed;

  while (!remaining.empty()) {
    if (o.interrupt && o.interrupt->load()) throw Error("interrupted");
    const std::string filter = filters_for(remaining, all).front();
    const std::size_t run = result.stats.processes++;
    const fs::path snapshot_path = work.path() / ("run-" + std::to_string(run) + ".map");
    const fs::path report_path = work.path() / ("run-" + std::to_string(run) + ".json");
    ProcessSpec spec;
    spec.argv = {o.gtest_binary.string(), "--gtest_filter=" + filter, "--gtest_output=json:" + report_path.string()};
    spec.argv.insert(spec.argv.end(), o.args.begin(), o.args.end());
    spec.cwd = o.cwd;
    spec.env_set = o.env;
    spec.env_set.push_back("DLFL_RT_FILE=" + snapshot_path.string());
    spec.stdout_limit = 16 * 1024;

    // The watchdog: polls which test runs (from the snapshot file) and kills the whole
    // process group through `cancel` when one exceeds the limit or on interrupt.
    std::atomic<bool> cancel{false}, finished{false}, timed_out{false};
    std::thread watchdog([&] {
      const auto limit_ns = static_cast<std::uint64_t>(o.timeout.count()) * 1000000ULL;
      while (!finished.load()) {
        if (o.interrupt && o.interrupt->load()) cancel = true;
        if (limit_ns) {
          const auto [slot, since] = running_test(snapshot_path);
          if (slot && monotonic_ns() - since > limit_ns) {
            timed_out = true;
            cancel = true;
          }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    });
    ProcessResult process;
    try {
      process = run_process(spec, &cancel);
    } catch (...) {
      finished = true;
      watchdog.join();
      throw;
    }
    finished = true;
    watchdog.join();
    if (o.interrupt && o.interrupt->load()) throw Error("interrupted");

    RuntimeSnapshot snap;
    if (fs::exists(snapshot_path)) {
      snap = read_runtime_snapshot(snapshot_path);
      if (snap.map_id && map.id && snap.map_id != map.id)
        throw Error(o.gtest_binary.string(), 0,
                    "was instrumented with another probe map than " + o.probe_map.string() +
                        " (the ids differ): give the dlfl-probes.map of the tree it was built from");
      if (snap.probe_count > map.probe_count)
        throw Error(snapshot_path.string(), 0, "has more probes than the probe map " + o.probe_map.string());
    }
    // gtest death tests re-execute the binary, which writes PATH.PID: their coverage
    // belongs to the test of the same name.
    std::map<std::string, std::vector<std::uint32_t>> child_probes;
    for (const auto& entry : fs::directory_iterator(work.path())) {
      const std::string f = entry.path().filename().string();
      if (f.rfind(snapshot_path.filename().string() + ".", 0) != 0) continue;
      try {
        for (auto& s : read_runtime_snapshot(entry.path()).tests)
          child_probes[s.name].insert(child_probes[s.name].end(), s.probes.begin(), s.probes.end());
      } catch (const Error& e) {
        result.warnings.push_back(std::string("ignoring a child process snapshot: ") + e.what());
      }
    }
    std::string report;
    if (fs::exists(report_path)) {
      std::ifstream in(report_path);
      std::stringstream ss;
      ss << in.rdbuf();
      report = ss.str();
    }

    const std::set<std::string> pending(remaining.begin(), remaining.end());
    std::set<std::string> done;
    for (auto& slot : snap.tests) {
      if (!pending.count(slot.name) || done.count(slot.name)) {
        result.warnings.push_back("the binary ran an unexpected test '" + slot.name + "'; ignored");
        continue;
      }
      TestRecord rec;
      rec.test.name = slot.name;
      rec.probes = std::move(slot.probes);
      if (o.include_outside_tests) rec.probes.insert(rec.probes.end(), snap.outside.begin(), snap.outside.end());
      if (auto c = child_probes.find(slot.name); c != child_probes.end())
        rec.probes.insert(rec.probes.end(), c->second.begin(), c->second.end());
      if (slot.state == DLFL_RT_SLOT_ENDED) {
        rec.test.runtime_ns = slot.end_ns - slot.begin_ns;
        if (slot.outcome == DLFL_RT_SKIPPED) {
          rec.skipped = true;
        } else if (slot.outcome != DLFL_RT_PASSED) {
          rec.test = TestCase::fail(slot.name);
          rec.test.runtime_ns = slot.end_ns - slot.begin_ns;
          if (!report.empty()) {
            try {
              rec.test.message = parse_gtest_report(report, slot.name, report_path.string()).failures;
            } catch (const Error&) {
            }
          }
          if (slot.outcome == DLFL_RT_UNKNOWN) rec.test.message = "the test's end was never reported";
        }
      } else {
        // Began and never ended: this test took the process down (or we killed it).
        const bool timeout = timed_out.load();
        const bool signaled = process.end == ProcessEnd::signaled || process.end == ProcessEnd::cancelled;
        rec.test = TestCase::fail(slot.name, timeout    ? TestStatus::timed_out
                                             : signaled ? TestStatus::crashed
                                                        : TestStatus::failed);
        rec.test.runtime_ns = monotonic_ns() - slot.begin_ns;
        const std::string how = timeout ? "timed out after " + std::to_string(o.timeout.count()) + " ms"
                                        : describe_end(process, std::chrono::milliseconds(0));
        rec.test.message = how + "\n" + tail(process.out, 2000);
        result.warnings.push_back(slot.name + ": " + (timeout ? "" : "ended the test binary, ") + how +
                                  "; recorded as failing with the coverage it reached");
      }
      done.insert(slot.name);
      records[slot.name] = std::move(rec);
      if (o.progress) o.progress->test_done(records[slot.name].test.failed());
    }
    if (done.empty() && process.end == ProcessEnd::exited && process.exit_code == 0) {
      if (!fs::exists(snapshot_path) && run == 0)
        throw Error(o.gtest_binary.string(), 0,
                    "ran but wrote no coverage snapshot: build it from a `dlfl instrument` tree and link it with "
                    "$(dlfl config --libs --gtest)");
      // GoogleTest ran none of them (the filter matched nothing): they cannot run here.
      for (const auto& t : remaining) {
        records[t].skipped = true;
        result.warnings.push_back(t + ": listed but not run by the binary; left out");
      }
      break;
    }
    if (done.empty()) {
      // The process ended before its first test began (it died in static initialisation
      // or a suite set-up, or gtest ran nothing). Blame the first test it would have run,
      // so every restart makes progress and nothing runs twice.
      TestRecord rec;
      const bool ran_normally = process.end == ProcessEnd::exited && (process.exit_code == 0 || process.exit_code == 1);
      rec.test = TestCase::fail(remaining.front(), ran_normally ? TestStatus::failed : TestStatus::crashed);
      rec.test.message = "the binary ended (" + describe_end(process, o.timeout) +
                         ") before this test began\n" + tail(process.out, 2000);
      if (o.include_outside_tests) rec.probes = snap.outside;
      result.warnings.push_back(remaining.front() + ": " + rec.test.message.substr(0, rec.test.message.find('\n')));
      done.insert(remaining.front());
      records[remaining.front()] = std::move(rec);
      if (o.progress) o.progress->test_done(true);
    }
    std::erase_if(remaining, [&](const std::string& t) { return done.count(t) > 0; });
    if (!remaining.empty() && o.progress)
      o.progress->note("restarting the test binary on the " + std::to_string(remaining.size()) + " remaining tests");
  }

  std::vector<std::string> failing_without, passing_without;
  for (const auto& name : listed) {
    TestRecord& rec = records[name];
    if (rec.skipped) {
      ++result.stats.skipped;
      continue;
    }
    std::vector<std::uint32_t> elements;
    for (const std::uint32_t p : rec.probes)
      if (p < index.elements_of_probe.size())
        elements.insert(elements.end(), index.elements_of_probe[p].begin(), index.elements_of_probe[p].end());
    if (rec.test.failed()) ++result.stats.failing;
    if (rec.test.status == TestStatus::crashed) ++result.stats.crashed;
    if (rec.test.status == TestStatus::timed_out) ++result.stats.timed_out;
    if (elements.empty()) (rec.test.failed() ? failing_without : passing_without).push_back(name);
    index.builder.add_test(std::move(rec.test), elements);
    ++result.stats.tests;
  }
  if (o.progress) o.progress->finish();
  // Usually a test of code outside the instrumented (or kept) files; a failing one then
  // cannot be localized.
  if (!failing_without.empty())
    result.warnings.push_back(counted(failing_without.size(), "failing test") +
                              " without coverage: " + name_list(failing_without));
  if (!passing_without.empty())
    result.warnings.push_back(counted(passing_without.size(), "passing test") +
                              " without coverage: " + name_list(passing_without));
  result.stats.no_coverage = failing_without.size() + passing_without.size();
  result.spectrum = std::move(index.builder).finish();
  result.stats.elements = result.spectrum.element_count();
  if (o.keep_work) result.work_dir = work.path();
  result.stats.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

}  // namespace dlfl::collect
