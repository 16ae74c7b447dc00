// Choosing the coverage backend: probing the test binaries (ELF sections, embedded .gcda
// paths) and the build tree (.gcno files).
#include "backend_selection.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "collectors.h"
#include "dlfl/collect/binary_probe.h"
#include "dlfl/error.h"

namespace dlfl::collect {

namespace fs = std::filesystem;

std::vector<fs::path> test_executables(const CollectRequest& o, const std::vector<TestCommand>& tests) {
  std::vector<fs::path> paths;
  if (const auto* gtest = std::get_if<GtestBinary>(&o.source)) paths.push_back(gtest->binary);
  if (const auto* ctest = std::get_if<CtestDirectory>(&o.source)) {
    std::set<std::string> seen;
    for (const auto& t : tests) {
      fs::path exe = t.argv.front();
      if (exe.is_relative()) exe = (t.cwd.empty() ? ctest->dir : t.cwd) / exe;
      std::error_code ec;
      if (fs::is_regular_file(exe, ec) && seen.insert(exe.string()).second) paths.push_back(exe);
    }
  }
  return paths;
}

namespace {

struct Probed {
  fs::path path;
  BinaryInfo info;
};

std::vector<Probed> probe_candidates(const CollectRequest& o, const std::vector<TestCommand>& tests) {
  const std::vector<fs::path> paths = test_executables(o, tests);
  std::vector<Probed> probed;
  for (const auto& p : paths) probed.push_back({p, probe_binary(p)});
  for (const auto& p : o.objects) {
    std::error_code ec;
    if (std::any_of(paths.begin(), paths.end(), [&](const fs::path& test) { return fs::equivalent(test, p, ec); }))
      continue;  // a test's own executable, probed above
    Probed object{p, probe_binary(p)};
    if (!object.info.elf) throw Error(p.string(), 0, "--object: not an ELF binary");
    probed.push_back(std::move(object));
  }
  return probed;
}

fs::path first_gcno_under(const fs::path& dir) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->path().extension() == ".gcno") return it->path();
  return {};
}

std::string what_runs(const CollectRequest& o) {
  if (const auto* gtest = std::get_if<GtestBinary>(&o.source)) return gtest->binary.string();
  if (const auto* ctest = std::get_if<CtestDirectory>(&o.source)) return "the test executables of " + ctest->dir.string();
  return "the --object binaries";
}

constexpr const char* kBuildHint =
    "build with --coverage (gcc) or -fprofile-instr-generate -fcoverage-mapping (clang)";

}  // namespace

std::string_view coverage_kind_name(CoverageKind kind) noexcept {
  switch (kind) {
    case CoverageKind::automatic:
      return "auto";
    case CoverageKind::gcov:
      return "gcov";
    case CoverageKind::llvm:
      return "llvm";
    case CoverageKind::runtime:
      return "runtime";
  }
  return "?";
}

std::unique_ptr<CoverageBackend> select_backend(const CollectRequest& o, const std::vector<TestCommand>& tests,
                                                std::vector<std::string>& notes) {
  if (o.coverage == CoverageKind::runtime) {
    return make_runtime_backend(runtime_probe_map(o), runtime_path_filter(o));
  }
  const std::vector<Probed> probed = probe_candidates(o, tests);
  bool any_llvm = false, any_gcov = false;
  for (const auto& p : probed) {
    any_llvm = any_llvm || p.info.llvm_coverage;
    any_gcov = any_gcov || !p.info.gcda_paths.empty();
  }
  fs::path sample_gcno;
  for (const auto& p : probed)
    for (const auto& gcda : p.info.gcda_paths) {
      fs::path gcno = fs::path(gcda).replace_extension(".gcno");
      std::error_code ec;
      if (sample_gcno.empty() && fs::is_regular_file(gcno, ec)) sample_gcno = gcno;
    }
  const auto* ctest = std::get_if<CtestDirectory>(&o.source);
  const bool gtest = std::holds_alternative<GtestBinary>(o.source);
  if (sample_gcno.empty() && ctest) sample_gcno = first_gcno_under(ctest->dir);

  CoverageKind kind = o.coverage;
  if (kind == CoverageKind::automatic) {
    if (any_llvm)
      kind = CoverageKind::llvm;
    else if (any_gcov || (ctest && !sample_gcno.empty()))
      kind = CoverageKind::gcov;
    else if (std::holds_alternative<CommandList>(o.source) && o.objects.empty())
      throw Error("cannot tell how the --tests commands are instrumented: pass --coverage gcov, or --coverage llvm "
                  "with --object BINARY");
    else
      throw Error(fmt::format("{} {} not built with coverage instrumentation (no LLVM coverage mapping, no gcov "
                              "data paths{}): {}",
                              what_runs(o), gtest ? "is" : "are",
                              ctest ? ", no .gcno file under it" : "", kBuildHint));
  }

  if (kind == CoverageKind::gcov) {
    // A binary the user named that holds no gcov data paths will write no .gcda.
    for (const auto& p : probed)
      if (p.info.elf && p.info.gcda_paths.empty() && gtest)
        throw Error(p.path.string(), 0,
                    p.info.llvm_coverage ? "built with LLVM coverage, not gcov: use --coverage llvm"
                                         : std::string("not built with --coverage (no gcov data paths in it): ") +
                                               kBuildHint);
    return make_gcov_backend(o.tools, sample_gcno, o.paths.source_root);
  }

  std::vector<fs::path> objects;
  bool continuous = true;
  for (const auto& p : probed) {
    if (!p.info.llvm_coverage) {
      if (gtest && p.path == std::get<GtestBinary>(o.source).binary)
        throw Error(p.path.string(), 0,
                    !p.info.gcda_paths.empty()
                        ? "built with gcov coverage (--coverage), not LLVM's: use --coverage gcov"
                        : "not built with LLVM coverage (no __llvm_covmap section): build with clang "
                          "-fprofile-instr-generate -fcoverage-mapping");
      if (std::find(o.objects.begin(), o.objects.end(), p.path) != o.objects.end())
        throw Error(p.path.string(), 0, "--object: not built with LLVM coverage (no __llvm_covmap section)");
      continue;
    }
    objects.push_back(p.path);
    if (!p.info.llvm_continuous_capable) {
      if (continuous)
        notes.push_back(fmt::format(
            "LLVM continuous mode is off: {} was not built with -mllvm -runtime-counter-relocation, so a test that "
            "crashes or times out has no coverage",
            p.path.string()));
      continuous = false;
    }
  }
  if (objects.empty())
    throw Error(fmt::format("{}: no binary with LLVM coverage found: {}", what_runs(o), kBuildHint));
  return make_llvm_backend(o.tools, std::move(objects), continuous, !o.paths.include_system);
}

}  // namespace dlfl::collect
