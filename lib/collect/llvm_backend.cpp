// The LLVM source-based coverage backend: LLVM_PROFILE_FILE per test, then
// `llvm-profdata merge` + `llvm-cov export -format=lcov` for that test's profiles.
//
// Continuous mode (`%c` in LLVM_PROFILE_FILE, clang docs "Source-based Code Coverage"):
// the runtime mmaps the profile file and the counters live in it, so a test killed by
// a signal or by our timeout keeps the coverage it had. Measured with clang 14.0.6 on
// Debian 12 (x86-64 Linux): it works only for code compiled with
// `-mllvm -runtime-counter-relocation`; without it the runtime prints "LLVM Profile
// Error: __llvm_profile_counter_bias is undefined" and leaves an empty .profraw, even
// for a test that exits normally. So %c is used only when every object was built that
// way (BinaryInfo::llvm_continuous_capable); otherwise the profile is written at exit
// and a killed test has none.
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "dlfl/collect/binary_probe.h"
#include "dlfl/collect/coverage_backend.h"
#include "dlfl/collect/coverage_formats.h"
#include "dlfl/collect/process.h"
#include "dlfl/error.h"
#include "tool_lookup.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

// kSystemExcludes as one llvm::Regex (POSIX ERE): dropping libstdc++ and GoogleTest
// headers in llvm-cov keeps its output, and our parsing, small.
constexpr const char* kSystemRegex = "^/usr/(include|lib|local/include|local/lib|share)/";

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

class LlvmBackend final : public CoverageBackend {
 public:
  LlvmBackend(std::string profdata, std::string cov, std::string version, std::vector<fs::path> objects,
              bool continuous, bool skip_system)
      : profdata_(std::move(profdata)), cov_(std::move(cov)), version_(std::move(version)),
        objects_(std::move(objects)), continuous_(continuous), skip_system_(skip_system) {}

  CoverageKind kind() const noexcept override { return CoverageKind::llvm; }
  bool keeps_coverage_of_killed_tests() const noexcept override { return continuous_; }
  std::string description() const override {
    return fmt::format("{} ({}, {}), {}", version_, profdata_, cov_,
                       continuous_ ? "continuous mode: killed tests keep their coverage"
                                   : "profile written at exit: killed tests have no coverage");
  }

  std::vector<std::string> environment(const fs::path& dir, const std::string& /*test*/) const override {
    // %p: one file per process (a test may start helpers or re-execute itself, as
    // GoogleTest death tests do); all are merged. In continuous mode also %m, a file per
    // instrumented module: each module maps its own counters onto the file, so an
    // executable and its shared library sharing one would resize it under each other's
    // mapping (measured with clang 14: the library's counters are lost, and the process
    // dies of SIGBUS once the library's counters span more than a page).
    return {"LLVM_PROFILE_FILE=" + (dir / (continuous_ ? "%c%p-%m.profraw" : "%p.profraw")).string()};
  }

  std::optional<CoverageReport> read(const fs::path& dir, const std::string& test,
                                     const std::atomic<bool>* cancel) const override {
    std::vector<std::string> raw;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      // An empty file is a process that died before writing (or could not map it).
      if (entry.path().extension() == ".profraw" && entry.is_regular_file(ec) && entry.file_size(ec) > 0)
        raw.push_back(entry.path().string());
    if (ec) throw Error(dir.string(), 0, fmt::format("test {}: cannot list its coverage files: {}", test, ec.message()));
    if (raw.empty()) return std::nullopt;
    std::sort(raw.begin(), raw.end());

    const std::string indexed = (dir / "test.profdata").string();
    ProcessSpec merge;
    merge.argv = {profdata_, "merge", "-sparse", "-o", indexed};
    merge.argv.insert(merge.argv.end(), raw.begin(), raw.end());
    const ProcessResult m = run_tool(merge, cancel);
    if (m.end == ProcessEnd::cancelled) return std::nullopt;
    if (!m.ok())
      throw Error(fmt::format("coverage data of test {} is unreadable: {} merge: {}", test, profdata_,
                              m.err.empty() ? describe_end(m, merge.timeout) : first_line(m.err)));

    ProcessSpec exporter = export_command(indexed, "lcov");
    const ProcessResult e = run_tool(exporter, cancel);
    if (e.end == ProcessEnd::cancelled) return std::nullopt;
    if (!e.ok())
      throw Error(fmt::format("coverage data of test {}: {} export failed: {}", test, cov_,
                              e.err.empty() ? describe_end(e, exporter.timeout) : first_line(e.err)));
    CoverageReport report;
    parse_lcov(e.out, fmt::format("llvm-cov output for test {}", test), report);
    add_functions_once(indexed, test, cancel, report);
    return report;
  }

 private:
  static ProcessResult run_tool(ProcessSpec& spec, const std::atomic<bool>* cancel) {
    spec.merge_stderr = false;
    spec.stdout_limit = SIZE_MAX;
    spec.timeout = std::chrono::minutes(10);
    return run_process(spec, cancel);
  }

  ProcessSpec export_command(const std::string& indexed, const char* format) const {
    ProcessSpec spec;
    spec.argv = {cov_, "export", std::string("-format=") + format, "-instr-profile=" + indexed};
    if (format == std::string_view("lcov"))
      spec.argv.emplace_back("-skip-functions");
    else
      spec.argv.emplace_back("-skip-expansions");
    if (skip_system_) spec.argv.push_back(std::string("-ignore-filename-regex=") + kSystemRegex);
    spec.argv.push_back(objects_.front().string());
    for (std::size_t i = 1; i < objects_.size(); ++i) {
      spec.argv.emplace_back("-object");
      spec.argv.push_back(objects_[i].string());
    }
    return spec;
  }

  // The function extents are the same for every test (they come from the binaries'
  // coverage mapping), so they are read once, from the first test's profile, and added
  // to that test's report.
  void add_functions_once(const std::string& indexed, const std::string& test, const std::atomic<bool>* cancel,
                          CoverageReport& report) const {
    std::lock_guard lock(functions_mutex_);
    if (functions_read_) return;
    ProcessSpec spec = export_command(indexed, "text");
    const ProcessResult r = run_tool(spec, cancel);
    if (r.end == ProcessEnd::cancelled) return;
    if (!r.ok())
      throw Error(fmt::format("coverage data of test {}: {} export (functions) failed: {}", test, cov_,
                              r.err.empty() ? describe_end(r, spec.timeout) : first_line(r.err)));
    parse_llvm_export_functions(r.out, fmt::format("llvm-cov JSON export for test {}", test), report);
    functions_read_ = true;
  }

  std::string profdata_, cov_, version_;
  std::vector<fs::path> objects_;
  bool continuous_ = false;
  bool skip_system_ = false;
  mutable std::mutex functions_mutex_;
  mutable bool functions_read_ = false;
};

std::string resolve_tool(const std::string& given, std::string_view base, int clang_major, const char* option) {
  std::string tool = given.empty() ? find_versioned(base, clang_major) : find_program(given);
  if (tool.empty())
    throw Error(given.empty() ? fmt::format("{} is not on PATH: install LLVM's tools (Debian: llvm-{}) or pass {} PATH",
                                            base, clang_major ? clang_major : 14, option)
                              : fmt::format("{} {}: no such executable", option, given));
  return tool;
}

}  // namespace

std::unique_ptr<CoverageBackend> make_llvm_backend(const CoverageTools& tools, std::vector<fs::path> objects,
                                                   bool continuous, bool skip_system_files) {
  if (objects.empty())
    throw Error("LLVM coverage needs the instrumented binaries (llvm-cov reads the coverage mapping from them): "
                "pass --object BINARY");
  const BinaryInfo main = probe_binary(objects.front());
  const int clang_major = main.clang_major;
  const std::string profdata = resolve_tool(tools.llvm_profdata, "llvm-profdata", clang_major, "--llvm-profdata");
  const std::string cov = resolve_tool(tools.llvm_cov, "llvm-cov", clang_major, "--llvm-cov");
  // llvm-profdata 14 has no top-level --version; its subcommands do.
  const ToolVersion profdata_version = query_version(profdata, {"merge", "--version"});
  const ToolVersion cov_version = query_version(cov);
  for (const auto& [tool, version] : {std::pair{profdata, profdata_version}, std::pair{cov, cov_version}}) {
    if (version.major == 0)
      throw Error(fmt::format("{} does not look like an LLVM tool (--version says '{}')", tool, version.line));
    // The raw profile and coverage mapping formats change between LLVM releases.
    if (clang_major != 0 && version.major != clang_major)
      throw Error(objects.front().string(), 0,
                  fmt::format("built by clang {} but {} is LLVM {}: install its tools (llvm-{}) or pass "
                              "--llvm-profdata/--llvm-cov",
                              clang_major, tool, version.major, clang_major));
  }
  return std::make_unique<LlvmBackend>(profdata, cov, cov_version.line, std::move(objects), continuous,
                                       skip_system_files);
}

}  // namespace dlfl::collect
