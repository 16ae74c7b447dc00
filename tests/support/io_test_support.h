// Helpers for the tests of lib/files, lib/formats and lib/report: unique temporary directories, file I/O, spectrum equality.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl::io {
namespace fs = std::filesystem;
}  // namespace dlfl::io

namespace dlfl::io::iotest {

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    path_ = fs::temp_directory_path() /
            ("dlfl-io-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
             std::to_string(rd()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    // Tests may leave read-only directories behind; make them removable first.
    for (auto it = fs::recursive_directory_iterator(path_, ec); !ec && it != fs::end(it); ++it)
      if (it->is_directory(ec)) fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const fs::path& path() const { return path_; }
  fs::path operator/(const fs::path& p) const { return path_ / p; }

  // Names of all entries (recursively, relative), sorted: to prove nothing was left behind.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(path_))
      names.push_back(fs::relative(e.path(), path_).string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

inline bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// Field-by-field equality of two spectra, with switches for what a format drops.
struct Compare {
  bool last_line = true;     // GZoltar keeps only first lines
  bool test_names = true;    // the legacy format has none
  bool test_details = true;  // status, runtime, message, exact weight
};

inline void expect_same_spectrum(const Spectrum& a, const Spectrum& b, Compare what = {}) {
  ASSERT_EQ(a.element_count(), b.element_count());
  ASSERT_EQ(a.test_count(), b.test_count());
  for (std::size_t e = 0; e < a.element_count(); ++e) {
    SCOPED_TRACE("element " + std::to_string(e));
    EXPECT_EQ(a.element_name(e), b.element_name(e));
    EXPECT_EQ(a.element(e).kind, b.element(e).kind);
    EXPECT_EQ(a.element(e).language, b.element(e).language);
    EXPECT_EQ(a.file(e), b.file(e));
    EXPECT_EQ(a.function(e), b.function(e));
    EXPECT_EQ(a.element(e).first_line, b.element(e).first_line);
    if (what.last_line) {
      EXPECT_EQ(a.element(e).last_line, b.element(e).last_line);
    }
  }
  for (std::size_t t = 0; t < a.test_count(); ++t) {
    SCOPED_TRACE("test " + std::to_string(t));
    const auto& x = a.tests()[t];
    const auto& y = b.tests()[t];
    if (what.test_names) {
      EXPECT_EQ(x.name, y.name);
    }
    EXPECT_EQ(x.failed(), y.failed());
    if (what.test_details) {
      EXPECT_EQ(x.failure_weight, y.failure_weight);
      EXPECT_EQ(x.status, y.status);
      EXPECT_EQ(x.runtime_ns, y.runtime_ns);
      EXPECT_EQ(x.message, y.message);
    }
  }
  ASSERT_EQ(a.element_count(), b.element_count());
  for (std::size_t e = 0; e < a.element_count(); ++e) {
    const auto tx = a.coverage().tests_of(e);
    const auto ty = b.coverage().tests_of(e);
    EXPECT_EQ(std::vector<std::uint32_t>(tx.begin(), tx.end()),
              std::vector<std::uint32_t>(ty.begin(), ty.end())) << "element " << e;
  }
}

// A small spectrum exercising what formats must survive: a GZoltar Java name, a C++
// name holding commas and colons, an extrinsic element, a test name with commas and
// quotes, a multi-line stack trace and an element nobody covers.
inline Spectrum sample_spectrum() {
  SpectrumBuilder b;
  b.add_named_element("org.pkg$Class#method(java.lang.String):37");  // 0
  b.add_element("src/a,b.cpp", 12, 12, "ns::f(int, char)");            // 1
  b.add_extrinsic("device=cuda");                                       // 2
  b.add_element("src/b.cpp", 5);                                        // 3
  b.add_element("src/b.cpp", 9);                                        // 4, never covered
  TestCase t1 = TestCase::pass("org.pkg.ClassTest#testOne");
  t1.runtime_ns = 1500;
  b.add_test(t1, {0, 1});
  TestCase t2 = TestCase::fail("Suite/Param.case/0, \"x,y\"");
  t2.runtime_ns = 42;
  t2.message = "java.lang.AssertionError: expected:<1> but was:<2>\n\tat Foo.bar(Foo.java:3)";
  b.add_test(t2, {1, 2, 3});
  b.add_test(TestCase::pass("test:with:colons"), {});
  return std::move(b).finish();
}

}  // namespace dlfl::io::iotest
