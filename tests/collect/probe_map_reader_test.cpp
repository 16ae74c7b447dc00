// Reading probe maps as other tools and platforms leave them (issue #14): CRLF line ends,
// a byte-order mark, a directory in place of the file, and a declared probe count far
// beyond what the map holds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "dlfl/error.h"
#include "dlfl/instrument/probe_map.h"
#include "runtime_spectrum.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

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
  const auto lf = instrument::read_probe_map(write(kMap));
  const auto dos = instrument::read_probe_map(write("\xEF\xBB\xBF" + crlf));
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
    instrument::read_probe_map(dir_ / "d.map");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), (dir_ / "d.map").string() + ": is a directory, expected a probe map file");
  }
}

TEST_F(ProbeMapReader, DeclaredProbeCountAndIdsAllocateNothing) {
  // `probes 4294967295` in a few bytes threw std::bad_alloc (300000000: 7.1 GB RSS)
  // before the spectrum builder had seen a single test; so would one site of a huge
  // probe id. Memory follows the sites now.
  const auto map = instrument::read_probe_map(
      write("dlfl-probe-map\t1\nroot\t/src\nprobes\t4294967295\nfile\t0\ta.cpp\nfunction\t0\tf\n"
            "site\t7\t0\t10\t1\t0\th\nsite\t4000000000\t0\t11\t1\t0\th\n"));
  EXPECT_EQ(map.probe_count, 4294967295u);
  RuntimeSpectrumBuilder builder(map, false, std::nullopt);
  RuntimeTestRecord rec;
  rec.test = TestCase::fail("T");
  rec.probes = {4000000000u, 3, 4294967294u};  // probes without a site reach nothing
  builder.add(std::move(rec));
  CollectResult result;
  builder.finish(result);
  ASSERT_EQ(result.spectrum.element_count(), 2u);  // lines 10 and 11
  EXPECT_FALSE(result.spectrum.coverage().covers(0, 0));
  EXPECT_TRUE(result.spectrum.coverage().covers(0, 1));
}

}  // namespace
}  // namespace dlfl::collect
