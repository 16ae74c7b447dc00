// `dlfl instrument -j N` and what the parse of the units reports: the same tree and probe
// map for every N, and one line when units include headers that do not exist yet (the
// generated headers of a tree that was never built).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dlfl/error.h"
#include "dlfl/instrument/instrumenter.h"
#include "instrument_test_support.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;
using ::testing::HasSubstr;

// Every file under `dir`, relative path → bytes.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[e.path().lexically_relative(dir).generic_string()] = slurp(e.path());
  return out;
}

TEST(ParallelUnits, OutputIsTheSameForEveryJobCount) {
  TempDir tmp;
  const fs::path cases = fs::path(DLFL_SOURCE_DIR) / "tests/instrument/cases";
  const fs::path src = tmp / "src";
  // Seven units sharing headers, C and C++ in one database.
  fs::create_directories(src);
  for (const char* f : {"real/unit_a.cpp", "real/unit_b.cpp", "real/bom_header.h", "real/crlf_guarded.h",
                        "c/text.c", "c/words.c", "c/text.h", "constructs.cpp", "constructs.h"}) {
    fs::create_directories((src / f).parent_path());
    fs::copy_file(cases / f, src / f);
  }
  write_compile_commands(src, {"real/unit_a.cpp", "real/unit_b.cpp", "constructs.cpp"}, "clang++",
                         "-std=c++20 -I" DLFL_INCLUDE_DIR);
  std::string db = slurp(src / "compile_commands.json");
  db.replace(db.rfind(']'), 1,
             ",{\"directory\": \"" + src.string() + "\", \"command\": \"cc -std=c11 -c c/text.c\", \"file\": \"" +
                 (src / "c/text.c").string() + "\"},\n{\"directory\": \"" + src.string() +
                 "\", \"command\": \"gcc -c c/words.c\", \"file\": \"c/words.c\"}]\n");
  write_text(src / "compile_commands.json", db);

  std::map<std::string, std::string> first;
  for (const unsigned jobs : {1u, 3u, 2u}) {
    instrument::InstrumentOptions o;
    o.build_dir = src;
    o.root = src;
    o.out_dir = tmp / ("out" + std::to_string(jobs));
    o.jobs = jobs;
    const auto result = instrument::instrument(o);
    EXPECT_EQ(result.translation_units, 5u);
    EXPECT_EQ(result.rewritten.size(), 9u);
    const auto files = tree(o.out_dir);
    if (first.empty()) {
      first = files;
      continue;
    }
    ASSERT_EQ(files.size(), first.size()) << jobs << " jobs";
    for (const auto& [name, bytes] : first) EXPECT_TRUE(files.at(name) == bytes) << name << " differs with " << jobs << " jobs";
  }
}

TEST(ParallelUnits, MissingGeneratedHeadersAreOneLine) {
  TempDir tmp;
  const fs::path src = tmp / "src";
  write_text(src / "model.cc", "#include \"proto/model.pb.h\"\nint model() { return kModelVersion; }\n");
  write_text(src / "serve.cc", "#include <string>\n#include \"proto/model.pb.h\"\nint serve() { return 1; }\n");
  write_text(src / "plain.cc", "int plain() { return 2; }\n");
  write_compile_commands(src, {"model.cc", "serve.cc", "plain.cc"}, "g++", "-std=c++17");
  instrument::InstrumentOptions o;
  o.build_dir = src;
  o.out_dir = tmp / "out";
  o.jobs = 2;
  try {
    instrument::instrument(o);
    FAIL() << "instrumented a tree whose generated headers are missing";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_THAT(what, HasSubstr("2 of 3 translation units include headers that do not exist, e.g. 'proto/model.pb.h'"));
    EXPECT_THAT(what, HasSubstr("model.cc:1"));
    EXPECT_THAT(what, HasSubstr("generated headers are missing; build the tree once"));
  }
  EXPECT_FALSE(fs::exists(tmp / "out" / instrument::kProbeMapFileName));
  // --allow-errors rewrites what clang recovered.
  o.allow_errors = true;
  EXPECT_EQ(instrument::instrument(o).translation_units, 3u);
}

TEST(ParallelUnits, OtherClangErrorsNameTheUnitsInOneLine) {
  TempDir tmp;
  const fs::path src = tmp / "src";
  write_text(src / "bad.cc", "int bad() { return undeclared; }\n");
  write_text(src / "good.cc", "int good() { return 2; }\n");
  write_compile_commands(src, {"bad.cc", "good.cc"}, "g++", "-std=c++17");
  instrument::InstrumentOptions o;
  o.build_dir = src;
  o.out_dir = tmp / "out";
  try {
    instrument::instrument(o);
    FAIL() << "instrumented a unit with errors";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_THAT(what, HasSubstr("clang reported errors in 1 of 2 translation units"));
    EXPECT_THAT(what, HasSubstr("bad.cc"));
  }
}

}  // namespace
