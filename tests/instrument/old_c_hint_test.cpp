// Old C that gcc compiles with a warning and clang rejects (a `return;` in an int
// function is a -Wreturn-type error to clang 14): `dlfl instrument` fails with one error
// line after clang's messages and one hint naming the --extra-arg that lets clang parse
// the code; with that flag the unit instruments.
#include <gtest/gtest.h>

#include "instrument_test_support.h"

namespace {

using namespace dlfl::testing;

TEST(OldC, ClangRejectionComesWithAnExtraArgHintThatWorks) {
  TempDir tmp;
  const fs::path src = tmp / "src";
  write_text(src / "old.c",
             "int sign(x)\n"
             "int x;\n"
             "{\n"
             "  if (x < 0) return -1;\n"
             "  if (x > 0) return 1;\n"
             "  return;\n"
             "}\n");
  write_compile_commands(src, {"old.c"}, "gcc", "-std=c99");
  if (have_program("gcc")) {  // what the hint claims: gcc accepts it
    ASSERT_EQ(sh("cd " + src.string() + " && gcc -std=c99 -c old.c -o old.o").exit_code, 0);
  }
  const std::string instrument =
      std::string(DLFL_BINARY) + " instrument -q -p " + src.string() + " --root " + src.string() + " --out ";
  const Shell rejected = sh(instrument + (tmp / "out1").string());
  EXPECT_EQ(rejected.exit_code, 2) << rejected.output;
  EXPECT_NE(rejected.output.find("error: non-void function 'sign' should return a value"),
            std::string::npos)
      << rejected.output;
  EXPECT_NE(rejected.output.find("dlfl: hint: clang rejects what gcc may accept (-Wreturn-type in " +
                                 (src / "old.c").string() +
                                 "); pass --extra-arg=-Wno-error=return-type (or --extra-arg=-Wno-return-type) to "
                                 "dlfl instrument\n"),
            std::string::npos)
      << rejected.output;

  const Shell accepted = sh(instrument + (tmp / "out2").string() + " --extra-arg=-Wno-error=return-type");
  EXPECT_EQ(accepted.exit_code, 0) << accepted.output;
  EXPECT_NE(slurp(tmp / "out2/old.c").find("__dlfl_map"), std::string::npos) << slurp(tmp / "out2/old.c");
}

}  // namespace
