// Tests for the shared input opener and readers (text_file.h): only regular files, checked
// before anything can block; lines streamed with a bound; a start checked before the rest.
#include "dlfl/files/text_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "dlfl/error.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using iotest::TempDir;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}

std::vector<std::string> lines_of(const fs::path& path, std::size_t max_line = kMaxFieldBytes) {
  TextFileLines lines(path, max_line);
  std::vector<std::string> out;
  for (std::string_view line; lines.next(line);) out.emplace_back(line);
  return out;
}

TEST(InputFile, RefusesAFifoAtOnceInsteadOfWaitingForAWriter) {
  TempDir dir;
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Without a writer, a blocking open() would never return and this test would hang.
  EXPECT_EQ(error_of([&] { InputFile f(fifo); }), fifo.string() + ": not a regular file");
  EXPECT_EQ(error_of([&] { read_text_file(fifo); }), fifo.string() + ": not a regular file");
  EXPECT_EQ(error_of([&] { TextFileLines f(fifo); }), fifo.string() + ": not a regular file");
}

TEST(InputFile, RefusesDevicesAndDirectories) {
  TempDir dir;
  EXPECT_EQ(error_of([] { read_file_bytes("/dev/zero"); }), "/dev/zero: not a regular file");
  EXPECT_EQ(error_of([&] { read_file_bytes(dir.path()); }), dir.path().string() + ": is a directory, expected a file");
  EXPECT_EQ(error_of([&] { read_file_bytes(dir / "missing"); }),
            (dir / "missing").string() + ": cannot read: No such file or directory");
}

TEST(TextFileLines, GivesLinesWithoutBreaksCarriageReturnsOrByteOrderMark) {
  TempDir dir;
  iotest::write_file(dir / "t.txt", "\xEF\xBB\xBF" "a\r\n\nb\nlast");
  EXPECT_EQ(lines_of(dir / "t.txt"), (std::vector<std::string>{"a", "", "b", "last"}));
  iotest::write_file(dir / "empty.txt", "");
  EXPECT_TRUE(lines_of(dir / "empty.txt").empty());
  iotest::write_file(dir / "nl.txt", "x\n");
  EXPECT_EQ(lines_of(dir / "nl.txt"), (std::vector<std::string>{"x"}));
}

TEST(TextFileLines, LinesAcrossChunkBoundariesComeWhole) {
  TempDir dir;
  std::string text;
  std::vector<std::string> expected;
  for (std::size_t i = 0; i < 5000; ++i) {
    expected.push_back(std::string(i % 97, static_cast<char>('a' + i % 26)) + std::to_string(i));
    text += expected.back() + "\n";
  }
  expected.push_back(std::string(200000, 'z'));  // longer than one chunk
  text += expected.back() + "\n";
  iotest::write_file(dir / "t.txt", text);
  EXPECT_EQ(lines_of(dir / "t.txt"), expected);
}

TEST(TextFileLines, ALineOverTheBoundNamesFileAndLine) {
  TempDir dir;
  iotest::write_file(dir / "t.txt", "ok\n" + std::string(kMaxFieldBytes + 1, 'x') + "\nafter\n");
  EXPECT_EQ(error_of([&] { lines_of(dir / "t.txt"); }), (dir / "t.txt").string() + ":2: line longer than the 1 MiB limit");
  iotest::write_file(dir / "nul.txt", std::string(4 << 20, '\0'));  // no line break at all
  EXPECT_EQ(error_of([&] { lines_of(dir / "nul.txt", 100); }), (dir / "nul.txt").string() + ":1: line longer than the 100-byte limit");
  iotest::write_file(dir / "fits.txt", std::string(100, 'y') + "\n");
  EXPECT_EQ(lines_of(dir / "fits.txt", 100).at(0).size(), 100u);
}

TEST(ReadTextFile, TheStartIsCheckedBeforeTheRestIsRead) {
  TempDir dir;
  iotest::write_file(dir / "t.txt", "\xEF\xBB\xBF" "header\n" + std::string(3 << 20, 'r'));
  std::string seen;
  const std::string text = read_text_file(dir / "t.txt", [&](std::string_view start) { seen = start; });
  EXPECT_EQ(seen.size(), kMaxFieldBytes);
  EXPECT_TRUE(seen.starts_with("header\n"));
  EXPECT_EQ(text, "header\n" + std::string(3 << 20, 'r'));
  iotest::write_file(dir / "short.txt", "abc");
  EXPECT_EQ(read_text_file(dir / "short.txt", [&](std::string_view start) { seen = start; }), "abc");
  EXPECT_EQ(seen, "abc");
  EXPECT_EQ(error_of([&] { read_text_file(dir / "t.txt", [](std::string_view) { throw Error("f", 1, "bad start"); }); }),
            "f:1: bad start");
}

TEST(ReadTextFile, AFileOverItsBoundIsRefusedBeforeItIsRead) {
  TempDir dir;
  const fs::path big = dir / "big.json";
  {
    // Sparse: 2 GiB that cost no disk. Reading it would cost 2 GiB of memory.
    std::ofstream(big).close();
    ASSERT_EQ(::truncate(big.c_str(), off_t{2} << 30), 0);
  }
  EXPECT_EQ(error_of([&] { read_text_file(big, std::size_t{1} << 20, "recipe"); }),
            big.string() + ": recipe of 2147483648 bytes is larger than the 1 MiB limit");
  EXPECT_EQ(error_of([&] { read_file_bytes(big, std::size_t{1} << 30, "call graph"); }),
            big.string() + ": call graph of 2147483648 bytes is larger than the 1 GiB limit");
  iotest::write_file(dir / "fits.txt", "\xEF\xBB\xBF" + std::string(100, 'a'));
  EXPECT_EQ(read_text_file(dir / "fits.txt", 103, "file"), std::string(100, 'a'));  // the bound counts the BOM
  EXPECT_EQ(read_file_bytes(dir / "fits.txt", 103, "file").size(), 103u);
  EXPECT_EQ(error_of([&] { read_text_file(dir / "fits.txt", 102, "file"); }),
            (dir / "fits.txt").string() + ": file of 103 bytes is larger than the 102-byte limit");
}

TEST(ReadTextFile, ALineOverItsBoundIsRefusedAsSoonAsItIsRead) {
  TempDir dir;
  const fs::path nul = dir / "nul.txt";
  {
    std::ofstream(nul) << "first\r\n" << std::string(100, 's') << "\n";
    ASSERT_EQ(::truncate(nul.c_str(), off_t{2} << 30), 0);  // then 2 GiB of NULs, no line break
  }
  EXPECT_EQ(error_of([&] { read_text_file(nul, std::size_t{4} << 30, "table", 100); }),
            nul.string() + ":3: line longer than the 100-byte limit");
  // Lines across the 64 KiB reads, and the last one without a line break.
  const std::string text = "\xEF\xBB\xBF" + std::string(100, 'a') + "\n" + std::string(70000, 'b') + "\n" +
                           std::string(70000, 'c') + "\n" + std::string(100, 'd');
  iotest::write_file(dir / "t.txt", text);
  EXPECT_EQ(read_text_file(dir / "t.txt", text.size(), "table", 70000), text.substr(3));
  EXPECT_EQ(error_of([&] { read_text_file(dir / "t.txt", text.size(), "table", 69999); }),
            (dir / "t.txt").string() + ":2: line longer than the 69999-byte limit");
  EXPECT_EQ(read_text_file(dir / "t.txt", text.size(), "table", 70000).size(), text.size() - 3);
}

TEST(Excerpt, CutsLongValuesWithoutSplittingACharacter) {
  EXPECT_EQ(excerpt("short"), "short");
  EXPECT_EQ(excerpt(std::string(61, 'a')), std::string(60, 'a') + "...");
  EXPECT_EQ(excerpt(std::string(59, 'a') + "\xC3\xA9" + "b"), std::string(59, 'a') + "...");  // é kept whole or not at all
}

}  // namespace
}  // namespace dlfl::io
