// Reading probe maps as other tools and platforms leave them: CRLF line ends, a byte-order
// mark, a directory in place of the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "dlfl/error.h"
#include "dlfl/probe_map/probe_map.h"

namespace dlfl::instrument {
namespace {

namespace fs = std::filesystem;

class ProbeMapReader : public ::testing::Test {
 protected:
  ProbeMapReader() {
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("dlfl-probe-map-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(dir_);
  }
  ~ProbeMapReader() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path write(const std::string& text) {
    std::ofstream(dir_ / "m.map", std::ios::binary) << text;
    return dir_ / "m.map";
  }
  fs::path dir_;
};

const char* const kMap =
    "dlfl-probe-map\t1\nroot\t/src\nprobes\t2\nid\t00000000000000ab\nfile\t0\ta.cpp\nfunction\t0\tf\n"
    "site\t0\t0\t10\t1\t0\th\nsite\t1\t0\t11\t1\t0\th\n";

TEST_F(ProbeMapReader, CrlfAndByteOrderMarkReadLikeLf) {
  std::string crlf;
  for (const char c : std::string(kMap)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const auto lf = read_probe_map(write(kMap));
  const auto dos = read_probe_map(write("\xEF\xBB\xBF" + crlf));
  EXPECT_EQ(dos.probe_count, 2u);
  EXPECT_EQ(dos.root, "/src");
  EXPECT_EQ(dos.files, lf.files);
  EXPECT_EQ(dos.functions, lf.functions);
  EXPECT_EQ(dos.sites.size(), 2u);
  EXPECT_EQ(dos.id, lf.id);
}

TEST_F(ProbeMapReader, DirectoryIsNamedInOneLine) {
  fs::create_directories(dir_ / "d.map");
  try {
    read_probe_map(dir_ / "d.map");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), (dir_ / "d.map").string() + ": is a directory, expected a probe map file");
  }
}

}  // namespace
}  // namespace dlfl::instrument
