// scripts/realbugs_check.py: the study's page (docs/realbugs.md) against an independent
// recomputation from the lists (bugsets/); a number changed on the page is named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <sys/wait.h>

#include "../../support/shell_output.h"
#include "../../support/test_files.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path root = fs::path(DLFL_REALBUGS_SCRIPT).parent_path().parent_path();

dlfl::testing::ShellRun check(const fs::path& page) {
  return dlfl::testing::capture_shell("/usr/bin/python3 " + (root / "scripts" / "realbugs_check.py").string() + " " +
                                      page.string() + " " + (root / "bugsets").string() + " 2>&1");
}

TEST(RealbugsCheck, ThePagesNumbersAreThoseTheListsGive) {
  const auto r = check(root / "docs" / "realbugs.md");
  EXPECT_EQ(WEXITSTATUS(r.status), 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr(", 0 differ"));
}

TEST(RealbugsCheck, ANumberThePageChangedIsNamed) {
  std::string page = dlfl::testing::slurp(root / "docs" / "realbugs.md");
  const std::string row = "| ochiai-whole-file | line | 20 | 0.12 |";
  const auto at = page.find(row);
  ASSERT_NE(at, std::string::npos) << "the page's DL figures have no row " << row;
  page.replace(at, row.size(), "| ochiai-whole-file | line | 20 | 0.13 |");
  const dlfl::testing::TempDir dir{"realbugs-check"};
  dlfl::testing::write_text(dir.path() / "realbugs.md", page);
  const auto r = check(dir.path() / "realbugs.md");
  EXPECT_EQ(WEXITSTATUS(r.status), 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("DL ochiai-whole-file line column 4: the page says 0.13, the lists give 0.12"));
}

}  // namespace
}  // namespace dlfl::bench
