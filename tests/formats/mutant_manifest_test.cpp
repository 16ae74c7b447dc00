// The mutants manifest: what is written reads back, and bad manifests fail naming the file.
#include "dlfl/formats/mutant_manifest.h"

#include <gtest/gtest.h>

#include "../support/test_files.h"
#include "dlfl/error.h"

namespace dlfl::io {
namespace {

using dlfl::testing::TempDir;
using dlfl::testing::write_text;

MutantManifest two_mutants() {
  MutantManifest m;
  m.generated = 5;
  m.dropped_uncompilable = 2;
  m.dropped_unguardable = 1;
  m.mutants.push_back({1, "src_a_cpp-L3-negate_condition-1", "src/a.cpp", 3, 7, "negate_condition", "x < y",
                       "!(x < y)", "f"});
  m.mutants.push_back({2, "src_a_cpp-L4-constant_replace-1", "src/a.cpp", 4, 12, "constant_replace", "1", "0", "f"});
  return m;
}

TEST(MutantManifest, WhatIsWrittenReadsBack) {
  TempDir dir("manifest");
  const MutantManifest m = two_mutants();
  write_mutant_manifest(m, dir / kMutantManifestFileName);
  const MutantManifest back = read_mutant_manifest(dir / kMutantManifestFileName);
  EXPECT_EQ(back.switch_variable, "DLFL_MUTANT");
  EXPECT_EQ(back.tree, "tree");
  EXPECT_EQ(back.generated, 5u);
  EXPECT_EQ(back.dropped_uncompilable, 2u);
  EXPECT_EQ(back.dropped_unguardable, 1u);
  ASSERT_EQ(back.mutants.size(), 2u);
  EXPECT_EQ(back.mutants[0].replacement, "!(x < y)");
  EXPECT_EQ(back.mutants[1].line, 4u);
  EXPECT_EQ(back.mutants[1].op, "constant_replace");
  EXPECT_EQ(manifest_digest(back), manifest_digest(m));
  EXPECT_FALSE(back.lines.has_value());  // nothing said, nothing read
  MutantManifest with_lines = m;
  with_lines.lines = std::vector<ManifestLine>{{"src/a.cpp", 3}, {"src/a.cpp", 9}};
  write_mutant_manifest(with_lines, dir / kMutantManifestFileName);
  EXPECT_EQ(read_mutant_manifest(dir / kMutantManifestFileName).lines, with_lines.lines);
  with_lines.lines->clear();  // no line examined is not the same as not saying
  write_mutant_manifest(with_lines, dir / kMutantManifestFileName);
  const auto none = read_mutant_manifest(dir / kMutantManifestFileName).lines;
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->empty());
}

TEST(MutantManifest, DigestChangesWithAnyEdit) {
  MutantManifest a = two_mutants(), b = two_mutants();
  b.mutants[1].replacement = "2";
  EXPECT_NE(manifest_digest(a), manifest_digest(b));
}

TEST(MutantManifest, BadManifestsNameTheFile) {
  TempDir dir("manifest");
  const auto path = dir / "bad.json";
  auto fails_with = [&](const std::string& text, const std::string& what) {
    write_text(path, text);
    try {
      read_mutant_manifest(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const Error& e) {
      EXPECT_NE(e.message().find(path.string()), std::string::npos) << e.message();
      EXPECT_NE(e.message().find(what), std::string::npos) << e.message();
    }
  };
  fails_with("{", "not JSON");
  fails_with(R"({"format": "other"})", "not a mutants manifest");
  const std::string head =
      R"({"format": "dlfl-mutant-schemata", "version": 1, "switch": "DLFL_MUTANT", "tree": "tree", "generated": 1,
          "dropped_uncompilable": 0, "dropped_unguardable": 0, "mutants": [)";
  const std::string mutant =
      R"({"number": 1, "id": "a", "file": "a.cpp", "line": 3, "column": 1, "operator": "o", "original": "x",
          "replacement": "y", "function": "f"})";
  fails_with(head + mutant + "," + mutant + "]}", "repeats");
  fails_with(head + R"({"number": 0}]})", "no \"id\"");
  fails_with(head + R"({"number": "1"}]})", "wrong type");
  fails_with(head + mutant + R"(], "lines": {}})", "\"lines\" is not an array");
  fails_with(head + mutant + R"(], "lines": [{"file": "a.cpp", "line": 0}]})", "line 1 of \"lines\": line 0");
  fails_with(head + mutant + R"(], "lines": [{"file": "a.cpp"}]})", "no \"line\"");
  write_text(path, head + mutant + "]}");
  EXPECT_EQ(read_mutant_manifest(path).mutants.size(), 1u);
}

}  // namespace
}  // namespace dlfl::io
