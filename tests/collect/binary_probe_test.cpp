// Binary probing (gcov stamps, ELF) on crafted files and on this test binary.
#include "dlfl/collect/binary_probe.h"

#include <gtest/gtest.h>

#include "collect_test_support.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

TEST(GcovStamp, MajorVersions) {
  EXPECT_EQ(gcov_stamp_major("B22*"), 12);  // gcc 12.2 release
  EXPECT_EQ(gcov_stamp_major("B31*"), 13);
  EXPECT_EQ(gcov_stamp_major("A73*"), 7);
  EXPECT_EQ(gcov_stamp_major("407*"), 4);  // the pre-5 scheme
  EXPECT_EQ(gcov_stamp_major("??"), 0);
  EXPECT_EQ(gcov_stamp_major("zz2*"), 0);
}

TEST(GcovStamp, ReadsNotesAndDataHeaders) {
  testing::TempDir dir;
  // Little-endian words on disk: magic "gcno" as "oncg", version "B22*" as "*22B".
  testing::write_text(dir / "a.gcno", std::string("oncg*22B\0\0\0\0", 12));
  testing::write_text(dir / "a.gcda", std::string("adcg*13B\0\0\0\0", 12));
  const auto notes = read_gcov_stamp(dir / "a.gcno");
  EXPECT_EQ(notes.stamp, "B22*");
  EXPECT_EQ(notes.major, 12);
  EXPECT_EQ(read_gcov_stamp(dir / "a.gcda").major, 13);
  testing::write_text(dir / "bad.gcno", "hello world");
  EXPECT_THROW(read_gcov_stamp(dir / "bad.gcno"), Error);
  EXPECT_THROW(read_gcov_stamp(dir / "missing.gcno"), Error);
}

TEST(ProbeBinary, NotElf) {
  testing::TempDir dir;
  testing::write_text(dir / "script.sh", "#!/bin/sh\necho hi\n");
  const auto info = probe_binary(dir / "script.sh");
  EXPECT_FALSE(info.elf);
  EXPECT_FALSE(info.llvm_coverage);
  EXPECT_TRUE(info.gcda_paths.empty());
  EXPECT_THROW(probe_binary(dir / "missing"), Error);
}

TEST(ProbeBinary, ThisTestBinaryHasNoCoverage) {
  const auto info = probe_binary("/proc/self/exe");
  EXPECT_TRUE(info.elf);
  EXPECT_FALSE(info.llvm_coverage);
  EXPECT_FALSE(info.llvm_continuous_capable);
  EXPECT_TRUE(info.gcda_paths.empty());
#if defined(__GNUC__) && !defined(__clang__)
  EXPECT_EQ(info.gcc_major, __GNUC__);
#endif
}

}  // namespace
}  // namespace dlfl::collect
