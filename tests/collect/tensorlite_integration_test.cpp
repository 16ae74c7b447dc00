// `dlfl collect` on the bundled DL example (examples/tensorlite) with its slice_offset
// fault seeded: a subset of its tests (the view tests, --filter'ed further) with both
// backends. The example is built here, on first run, into the build tree (later runs
// only check it is up to date); skipped when the example is absent.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "../support/spectrum_canonical.h"
#include "collect_test_support.h"
#include "dlfl/formats/native_format.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kExample = fs::path(DLFL_SOURCE_DIR) / "examples/tensorlite";
const fs::path kWrapper = fs::path(DLFL_SOURCE_DIR) / "tests/collect/fixtures/tensorlite_views";

struct Fault {
  std::string file;
  std::uint32_t line = 0;
};

// The seeded fault's ground truth, from the example's own record.
Fault slice_offset_fault() {
  const auto faults = nlohmann::json::parse(slurp(kExample / "faults/faults.json"));
  for (const auto& f : faults)
    if (f.value("id", "") == "slice_offset") return {f.at("file").get<std::string>(), f.at("lines").at(0).get<std::uint32_t>()};
  return {};
}

// Configures (once) and builds the views subset with `compiler` and coverage `flags`;
// returns the test binary, or an empty path with the build log in `log`.
fs::path build_views(const std::string& variant, const std::string& compiler, const std::string& flags,
                     std::string& log) {
  const fs::path build = fs::path(DLFL_COLLECT_FIXTURES) / ("tensorlite-" + variant);
  const std::string cmake = DLFL_CMAKE_COMMAND;
  // Several tests share this build and ctest runs them in parallel: one configures and
  // builds at a time, so no test runs a binary while another rebuilds its objects (a
  // rebuilt .gcno no longer matches the .gcda of the running binary: "stamp mismatch").
  fs::create_directories(build.parent_path());
  const int lock = ::open((build.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock >= 0) ::flock(lock, LOCK_EX);
  const std::unique_ptr<int, void (*)(int*)> unlock(lock >= 0 ? new int(lock) : nullptr, [](int* fd) {
    ::close(*fd);  // closing releases the lock
    delete fd;
  });
  if (!fs::exists(build / "CMakeCache.txt")) {
    const auto r = run_shell(cmake + " -S " + kWrapper.string() + " -B " + build.string() +
                             " -G Ninja -DCMAKE_MAKE_PROGRAM=" + DLFL_MAKE_PROGRAM +
                             " -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=" + compiler + " '-DCMAKE_CXX_FLAGS=" +
                             flags + "' -DTENSORLITE_DIR=" + kExample.string() +
                             " -DTENSORLITE_FAULT_DEFINITION=TENSORLITE_FAULT_SLICE_OFFSET=1");
    if (r.exit_code != 0) {
      log = r.out + r.err;
      fs::remove_all(build);
      return {};
    }
  }
  const auto r = run_shell(cmake + " --build " + build.string() + " -j2");
  if (r.exit_code != 0) {
    log = r.out + r.err;
    return {};
  }
  return build / "views_tests";
}

void collect_and_check(const std::string& variant, const std::string& compiler, const std::string& flags,
                       const std::string& coverage) {
  if (!fs::exists(kExample / "CMakeLists.txt") || !fs::exists(kExample / "tests/views_test.cpp"))
    GTEST_SKIP() << "examples/tensorlite is not there";
  std::string log;
  const fs::path binary = build_views(variant, compiler, flags, log);
  ASSERT_FALSE(binary.empty()) << "building the tensorlite views tests failed:\n" << log;
  const Fault fault = slice_offset_fault();
  ASSERT_NE(fault.line, 0u) << "faults.json has no slice_offset";

  TempDir dir;
  const auto r = run_shell(std::string(DLFL_BINARY) + " collect --gtest " + binary.string() + " --coverage " +
                           coverage + " --source-root " + kExample.string() +
                           " --exclude '*/tests/*' --filter 'Slice*:Grid/*:Select.*:Transpose.*' -j2 -q -o " +
                           (dir / "out.dlfl").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("collected 18 tests (4 failing)"));
  const Spectrum s = io::read_native(dir / "out.dlfl");
  // Every failing test runs the faulty line; the transposes never do; a passing slice does.
  std::size_t failing = 0;
  for (const auto& t : s.tests()) {
    if (!t.failed()) continue;
    ++failing;
    EXPECT_TRUE(covered_lines(s, t.name, fault.file).contains(fault.line)) << t.name;
  }
  EXPECT_EQ(failing, 4u);
  EXPECT_TRUE(covered_lines(s, "SliceViews.SliceSharesStorage", fault.file).contains(fault.line));
  EXPECT_FALSE(covered_lines(s, "Transpose.SwapsShapeAndStrides", fault.file).contains(fault.line));
  EXPECT_FALSE(covered_lines(s, "Transpose.SwapsShapeAndStrides", fault.file).empty());  // it runs views.cpp
  const auto functions = element_lines(s, fault.file);
  ASSERT_TRUE(functions.contains(fault.line));
  EXPECT_THAT(functions.at(fault.line), HasSubstr("tensorlite::Tensor::slice("));
}

TEST(CollectTensorlite, GcovViewsSubset) { collect_and_check("gcc", "g++", "--coverage", "gcov"); }

// Issue 17's "done when": shards (GoogleTest's split of the filtered tests) collected one
// by one and joined by `dlfl merge` are the same spectrum as one unsharded collection.
TEST(CollectTensorlite, GcovShardsMergeIntoTheUnshardedSpectrum) {
  if (!fs::exists(kExample / "CMakeLists.txt") || !fs::exists(kExample / "tests/views_test.cpp"))
    GTEST_SKIP() << "examples/tensorlite is not there";
  std::string log;
  const fs::path binary = build_views("gcc", "g++", "--coverage", log);
  ASSERT_FALSE(binary.empty()) << "building the tensorlite views tests failed:\n" << log;
  TempDir dir;
  const std::string collect = std::string(DLFL_BINARY) + " collect --gtest " + binary.string() +
                              " --coverage gcov --source-root " + kExample.string() +
                              " --exclude '*/tests/*' --filter 'Slice*:Grid/*:Select.*:Transpose.*' -j2 -q";
  const auto whole = run_shell(collect + " -o " + (dir / "whole.dlfl").string());
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::string shards;
  for (int i = 0; i < 3; ++i) {
    const std::string out = (dir / ("shard-" + std::to_string(i) + ".dlfl")).string();
    const auto r = run_shell(collect + " --shard " + std::to_string(i) + "/3 -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("collected 6 tests")) << r.out;
    shards += " " + out;
  }
  const auto merged = run_shell(std::string(DLFL_BINARY) + " merge" + shards + " -o " + (dir / "merged.dlfl").string());
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_THAT(merged.out, HasSubstr("merged 3 spectra: 18 tests (4 failing), "));
  const Spectrum a = io::read_native(dir / "whole.dlfl"), b = io::read_native(dir / "merged.dlfl");
  EXPECT_EQ(canonical(b), canonical(a));
  EXPECT_EQ(b.origin(), a.origin());
  EXPECT_FALSE(a.origin().source_root.empty());

  // The job-array examples (examples/jobarray), their own commands run as local
  // processes: 4 Slurm array tasks + the merge step, then the Kubernetes Indexed Job's 4
  // pods + the merge Job, each into its own shared directory.
  for (const std::string scheduler : {"slurm", "kubernetes"}) {
    const fs::path shared = dir / scheduler;
    const auto r = run_shell("cd " + std::string(DLFL_SOURCE_DIR) + " && DLFL=" + std::string(DLFL_BINARY) +
                             " DLFL_SHARED=" + shared.string() + " DLFL_COLLECT_ARGS=\"--gtest " + binary.string() +
                             " --coverage gcov --source-root " + kExample.string() +
                             " --exclude '*/tests/*' --filter 'Slice*:Grid/*:Select.*:Transpose.*' -j 1\" " +
                             "examples/jobarray/run_local.sh " + scheduler);
    ASSERT_EQ(r.exit_code, 0) << scheduler << ":\n" << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("merged 4 spectra: 18 tests (4 failing), ")) << r.out;
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(fs::exists(shared / ("shard-" + std::to_string(i) + ".dlfl"))) << i;
    EXPECT_EQ(canonical(io::read_native(shared / "sfl.dlfl")), canonical(a)) << scheduler;
  }
}

#if DLFL_COLLECT_HAVE_CLANG
TEST(CollectTensorlite, LlvmViewsSubset) {
  collect_and_check("clang", DLFL_CLANGXX,
                    "-fprofile-instr-generate -fcoverage-mapping -mllvm -runtime-counter-relocation", "llvm");
}
#endif

}  // namespace
}  // namespace dlfl::testing
