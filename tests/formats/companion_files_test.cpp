// Outputs of several files (an lcov trace and its tests sidecar, a Matrix Market matrix
// and its two sidecars) as one: a reader sees the old set or the new set (a companion
// edited by hand: one error line), never files of two writes paired silently.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <functional>
#include <map>

#include "dlfl/error.h"
#include "dlfl/formats/lcov_format.h"
#include "dlfl/formats/matrix_market_format.h"
#include "dlfl/files/companion_files.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using ::testing::HasSubstr;
using iotest::read_file;
using iotest::TempDir;
using iotest::write_file;

// `lines` source lines covered by a test whose outcome is `failing` and by `more` passing
// tests: two spectra that differ in that outcome only have sidecars of the same size.
Spectrum spectrum_of(std::size_t lines, bool failing, std::size_t more = 1) {
  SpectrumBuilder b;
  std::vector<std::uint32_t> all;
  for (std::uint32_t l = 1; l <= lines; ++l) {
    b.add_element("src/a.cpp", l, l, "f()");
    all.push_back(l - 1);
  }
  b.add_test(failing ? TestCase::fail("T.one") : TestCase::pass("T.one"), all);
  for (std::size_t t = 0; t < more; ++t) b.add_test(TestCase::pass("T.p" + std::to_string(t)), all);
  return std::move(b).finish();
}

struct Format {
  const char* name;
  const char* primary;
  std::function<void(const Spectrum&, const fs::path&)> write;
  std::function<Spectrum(const fs::path&)> read;
  std::vector<std::string> companions;  // the suffixes replacing the primary's extension
  std::size_t record_line;              // of the first companion's record
};

std::vector<Format> formats() {
  return {{"lcov", "s.info", [](const Spectrum& s, const fs::path& p) { write_lcov(s, p); }, read_lcov,
           {".tests.csv"}, 1},
          {"matrix_market", "s.mtx", [](const Spectrum& s, const fs::path& p) { write_matrix_market(s, p); },
           read_matrix_market, {".tests.csv", ".elements.csv"}, 3}};
}

fs::path with_suffix(fs::path p, const std::string& suffix) { return p.replace_extension(suffix); }

// A kill between the renames: the new companions are in place, the old primary is not
// yet replaced. The reader must refuse the pair in one line, not read the old coverage
// with the new outcomes.
TEST(CompanionFiles, AMixedSetIsAnErrorNotWrongData) {
  for (const Format& f : formats()) {
    SCOPED_TRACE(f.name);
    TempDir old_dir, new_dir;
    f.write(spectrum_of(3, false), old_dir / f.primary);
    f.write(spectrum_of(3, true), new_dir / f.primary);
    EXPECT_EQ(f.read(old_dir / f.primary).failing_test_ids().size(), 0u);
    for (const auto& suffix : f.companions) {
      const fs::path mine = with_suffix(old_dir / f.primary, suffix);
      ASSERT_EQ(fs::file_size(mine), fs::file_size(with_suffix(new_dir / f.primary, suffix))) << suffix;
      fs::copy_file(with_suffix(new_dir / f.primary, suffix), mine, fs::copy_options::overwrite_existing);
    }
    try {
      f.read(old_dir / f.primary);
      ADD_FAILURE() << "a mixed set was read";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_THAT(what, HasSubstr((old_dir / f.primary).string() + ":" + std::to_string(f.record_line) + ": "));
      EXPECT_THAT(what, HasSubstr(".tests.csv is not the one written with this file (its content differs)"));
      EXPECT_EQ(what.find('\n'), std::string::npos);
    }
    // The new set as a whole reads.
    EXPECT_EQ(f.read(new_dir / f.primary).failing_test_ids().size(), 1u);
  }
}

// A kill between the renames, at the moment commit_together renames the primary: the new
// companions are in place beside the old primary. The reader sees the old set (the
// companions it was written with were kept), and the next complete write the new one,
// leaving no kept copy behind.
TEST(CompanionFiles, AKillBetweenTheRenamesLeavesTheOldSetReadable) {
  struct Killed {};
  for (const Format& f : formats()) {
    SCOPED_TRACE(f.name);
    TempDir dir;
    const fs::path primary = dir / f.primary;
    f.write(spectrum_of(3, false), primary);
    detail::after_companions_committed = [] { throw Killed{}; };
    EXPECT_THROW(f.write(spectrum_of(3, true), primary), Killed);
    detail::after_companions_committed = nullptr;
    // The new companions are in place: read with the old primary, they would turn its
    // passing test into a failing one.
    EXPECT_THAT(read_file(with_suffix(primary, f.companions.front())), HasSubstr("FAIL"));
    EXPECT_EQ(f.read(primary).failing_test_ids().size(), 0u);

    f.write(spectrum_of(3, true), primary);
    EXPECT_EQ(f.read(primary).failing_test_ids().size(), 1u);
    for (const auto& entry : fs::directory_iterator(dir.path()))
      EXPECT_EQ(entry.path().filename().string().find(".prev-"), std::string::npos) << entry.path();
  }
}

// A write that fails late (a full disk, simulated by a file size limit that the
// companions fit and the primary does not) must leave the previous set whole and readable: no
// companion may be renamed before every file of the set was written.
TEST(CompanionFiles, AFailedWriteLeavesThePreviousSetReadable) {
  for (const Format& f : formats()) {
    SCOPED_TRACE(f.name);
    TempDir dir;
    const fs::path primary = dir / f.primary;
    f.write(spectrum_of(3, false), primary);
    std::map<std::string, std::string> before;
    for (const auto& e : fs::directory_iterator(dir.path())) before[e.path().filename()] = read_file(e.path());

    struct rlimit saved {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    auto* previous = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = saved;
    small.rlim_cur = 4096;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string message;
    try {
      f.write(spectrum_of(100, true, 60), primary);  // sidecars of 1-2 KB, a primary of 40 KB
    } catch (const Error& e) {
      message = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previous);

    EXPECT_THAT(message, HasSubstr("cannot write"));
    std::map<std::string, std::string> after;
    for (const auto& e : fs::directory_iterator(dir.path())) after[e.path().filename()] = read_file(e.path());
    EXPECT_TRUE(after == before) << "the previous files, and nothing else";
    EXPECT_EQ(f.read(primary).element_count(), 3u);
  }
}

TEST(CompanionFiles, TheRecordNamesSizeAndHashAndSurvivesRenamingTheSet) {
  TempDir dir;
  write_lcov(spectrum_of(3, true), dir / "a.info");
  const std::string trace = read_file(dir / "a.info");
  const std::string sidecar = read_file(dir / "a.tests.csv");
  EXPECT_THAT(trace.substr(0, trace.find('\n')),
              ::testing::MatchesRegex("# dlfl companion \\.tests\\.csv " + std::to_string(sidecar.size()) +
                                      " [0-9a-f]{16}"));
  fs::rename(dir / "a.info", dir / "b.lcov");
  fs::rename(dir / "a.tests.csv", dir / "b.tests.csv");
  EXPECT_EQ(read_lcov(dir / "b.lcov").failing_test_ids().size(), 1u);
  // A sidecar cut short is named with both sizes.
  write_file(dir / "b.tests.csv", sidecar.substr(0, sidecar.size() - 1));
  EXPECT_THROW(
      {
        try {
          read_lcov(dir / "b.lcov");
        } catch (const Error& e) {
          EXPECT_THAT(e.what(), HasSubstr("b.tests.csv is not the one written with this file (" +
                                          std::to_string(sidecar.size() - 1) + " bytes, expected " +
                                          std::to_string(sidecar.size()) + ")"));
          throw;
        }
      },
      Error);
}

TEST(CompanionFiles, MalformedOrUnknownRecordsAreErrors) {
  TempDir dir;
  write_matrix_market(spectrum_of(2, false), dir / "m.mtx");
  const std::string text = read_file(dir / "m.mtx");
  const auto at = text.find("% dlfl companion");
  ASSERT_NE(at, std::string::npos);
  for (const auto& [record, expected] : std::vector<std::pair<std::string, std::string>>{
           {"% dlfl companion .tests.csv twelve 0123456789abcdef\n", "malformed companion record"},
           {"% dlfl companion .tests.csv\n", "malformed companion record"},
           {"% dlfl companion ../../etc/passwd 12 0123456789abcdef\n", "names an unknown companion '../../etc/passwd'"}}) {
    write_file(dir / "m.mtx", text.substr(0, at) + record + text.substr(at));
    try {
      read_matrix_market(dir / "m.mtx");
      ADD_FAILURE() << record;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr((dir / "m.mtx").string() + ":3: " + expected)) << record;
    }
  }
}

}  // namespace
}  // namespace dlfl::io
