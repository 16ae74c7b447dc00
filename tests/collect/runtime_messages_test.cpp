// read_runtime_messages(): the listener's failure messages file (dlfl_rt_messages.h).
#include "dlfl/collect/runtime_messages.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <vector>

#include "dlfl/error.h"

namespace {

namespace fs = std::filesystem;
using dlfl::collect::read_runtime_messages;

class RuntimeMessages : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    path_ = fs::temp_directory_path() / ("dlfl-rt-messages-" + std::to_string(rd()));
  }
  void TearDown() override { fs::remove(path_); }
  const fs::path& write(const std::string& text) {
    std::ofstream(path_, std::ios::binary) << text;
    return path_;
  }
  fs::path path_;
};

TEST_F(RuntimeMessages, RunsOfATestInOrderWithNewlinesAndTabsKept) {
  const auto m = read_runtime_messages(
      write("dlfl-rt-messages 1\nfailure\tS.A\t9\na.cpp:3\nx\n"
            "failure\tS.B\t12\nb.cpp:4\n\ty\tz\n"
            "failure\tS.A\t7\na.cpp:5\n"));
  ASSERT_EQ(m.size(), 2u);
  ASSERT_EQ(m.at("S.A").size(), 2u);
  EXPECT_EQ(m.at("S.A")[0], "a.cpp:3\nx");
  EXPECT_EQ(m.at("S.A")[1], "a.cpp:5");
  EXPECT_EQ(m.at("S.B").front(), "b.cpp:4\n\ty\tz");
}

TEST_F(RuntimeMessages, HeaderOnlyIsNoMessageAndACutRecordIsLeftOut) {
  EXPECT_TRUE(read_runtime_messages(write("dlfl-rt-messages 1\n")).empty());
  // The process died writing its second record: in its head, then in its message.
  for (const std::string cut : {"failure\tS.B\t1", "failure\tS.B\t100\nonly part"}) {
    const auto m = read_runtime_messages(write("dlfl-rt-messages 1\nfailure\tS.A\t1\nx\n" + cut));
    ASSERT_EQ(m.size(), 1u) << cut;
    EXPECT_EQ(m.at("S.A").front(), "x");
  }
}

TEST_F(RuntimeMessages, MalformedFilesAreOneLineErrors) {
  const std::pair<std::string, std::string> cases[] = {
      {"{\"testsuites\": []}\n", ":1: not a dlfl runtime messages file"},
      {"dlfl-rt-messages 1\nfailure\tS.A\tten\nx\n", ":2: malformed failure record"},
      {"dlfl-rt-messages 1\nfailure\tS.A\t1\nx\npassed\tS.B\t1\ny\n", ":4: malformed failure record"},
      {"dlfl-rt-messages 1\nfailure\tS.A\t1\nxyz\n", ":2: failure record longer than its declared length"},
  };
  for (const auto& [text, error] : cases) {
    try {
      read_runtime_messages(write(text));
      ADD_FAILURE() << "no error for " << text;
    } catch (const dlfl::Error& e) {
      EXPECT_EQ(std::string(e.what()), path_.string() + error) << text;
    }
  }
  EXPECT_THROW(read_runtime_messages(path_.string() + ".missing"), dlfl::Error);
}

// A declared length of 2^64 - 1 is a record cut short, not a length + 1 that wraps to 0 and
// takes the rest of the file as its message (found reading the fuzz harness's target).
TEST_F(RuntimeMessages, LargestDeclaredLengthIsARecordCutShort) {
  const auto m = read_runtime_messages(
      write("dlfl-rt-messages 1\nfailure\tS.A\t1\nx\nfailure\tS.B\t18446744073709551615\nfailure\tS.C\t1\ny\n"));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m.at("S.A").front(), "x");
  // One more does not fit a length: malformed.
  EXPECT_THROW(read_runtime_messages(write("dlfl-rt-messages 1\nfailure\tS.B\t18446744073709551616\nx\n")),
               dlfl::Error);
}

// While the listener still appends: each call adds what was completed since the last one.
TEST_F(RuntimeMessages, ReadInPartsWhileTheFileGrows) {
  dlfl::collect::RuntimeMessagesReader reader;
  dlfl::collect::RuntimeMessages m;
  reader.read_more(write("dlfl-rt-mess"), m);  // the header itself is cut
  EXPECT_TRUE(m.empty());
  const std::string parts[] = {"ages 1\nfailure\tS.A\t3\nab", "c\nfailure\tS.B\t1\ny\nfail", "ure\tS.A\t1\nz\n"};
  std::string text = "dlfl-rt-mess";
  std::vector<std::size_t> sizes;
  for (const auto& part : parts) {
    text += part;
    reader.read_more(write(text), m);
    sizes.push_back(m.count("S.A") ? m.at("S.A").size() : 0);
  }
  EXPECT_EQ(sizes, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(m.at("S.A")[0], "abc");
  EXPECT_EQ(m.at("S.A")[1], "z");
  EXPECT_EQ(m.at("S.B").front(), "y");
  // Errors found in a later part still name their line of the whole file.
  try {
    reader.read_more(write(text + "failure\tS.C\tx\n"), m);
    ADD_FAILURE() << "no error for a malformed record";
  } catch (const dlfl::Error& e) {
    EXPECT_EQ(std::string(e.what()), path_.string() + ":8: malformed failure record");
  }
}

}  // namespace
