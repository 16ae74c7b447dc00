// The copy of the source tree `dlfl instrument` writes beside the rewritten files: it
// builds like a clean checkout, so no output of an earlier build (objects, extension
// modules, setuptools' build/ and *.egg-info, a CMake tree) is copied, which would make
// the instrumented build look up to date and load the old uninstrumented code.
#include <gtest/gtest.h>

#include "dlfl/instrument/instrumenter.h"
#include "instrument_test_support.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;

TEST(CopyTree, LeavesBuildOutputsOut) {
  TempDir tmp;
  const fs::path src = tmp / "src";
  fs::create_directories(src);
  write_text(src / "add.cpp", "int add(int a, int b) {\n  return a + b;\n}\n");
  write_compile_commands(src, {"add.cpp"}, "clang++", "-std=c++17");
  const std::vector<std::string> kept = {"setup.py", "pkg/__init__.py", "scripts/build/notes.txt", "docs/build.md"};
  const std::vector<std::string> outputs = {
      "build/temp.linux-x86_64-cpython-311/add.o",
      "build/lib.linux-x86_64-cpython-311/ext.cpython-311-x86_64-linux-gnu.so",
      "ext.cpython-311-x86_64-linux-gnu.so",
      "pkg/_C.so",
      "pkg/__pycache__/__init__.cpython-311.pyc",
      "ext.egg-info/PKG-INFO",
      "dist/ext-0.1.tar.gz",
      "cmake-build/CMakeCache.txt",
      "cmake-build/libadd.a",
      "ninja-out/build.ninja",
      "ninja-out/add.o",
      "vendor/libfoo.so.1",
  };
  for (const auto& f : kept) {
    fs::create_directories((src / f).parent_path());
    write_text(src / f, "kept\n");
  }
  for (const auto& f : outputs) {
    fs::create_directories((src / f).parent_path());
    write_text(src / f, "old build output\n");
  }

  instrument::InstrumentOptions o;
  o.build_dir = src;
  o.root = src;
  o.out_dir = tmp / "out";
  const auto result = instrument::instrument(o);
  EXPECT_EQ(result.rewritten.size(), 1u);
  EXPECT_TRUE(fs::exists(tmp / "out/add.cpp"));
  for (const auto& f : kept) EXPECT_TRUE(fs::exists(tmp / "out" / f)) << f;
  for (const auto& f : outputs) EXPECT_FALSE(fs::exists(tmp / "out" / f)) << f;
}

}  // namespace
