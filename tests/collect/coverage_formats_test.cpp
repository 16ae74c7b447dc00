// Coverage tool outputs → lines and functions: gcov 12 JSON, lcov, llvm-cov 14 JSON
// export, all captured from the real tools (tests/collect/data/README.md).
#include "dlfl/collect/coverage_formats.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <map>

#include "collect_test_support.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

std::string data(const std::string& name) {
  return testing::slurp(std::string(DLFL_SOURCE_DIR) + "/tests/collect/data/" + name);
}

// line → summed count over the file's entries (template instances repeat lines).
std::map<std::uint32_t, std::uint64_t> counts(const FileCoverage& f) {
  std::map<std::uint32_t, std::uint64_t> out;
  for (const auto& lc : f.lines) out[lc.line] += lc.count;
  return out;
}

std::vector<std::string> function_summary(const FileCoverage& f) {
  std::vector<std::string> out;
  for (const auto& fn : f.functions)
    out.push_back(fn.name + " " + std::to_string(fn.first_line) + "-" + std::to_string(fn.last_line));
  return out;
}

TEST(GcovJson, LinesFunctionsAndCompilationDirectory) {
  CoverageReport report;
  std::vector<std::string> data_files;
  parse_gcov_json(data("gcov12_sample.json"), "sample", report, &data_files);
  ASSERT_EQ(report.files.size(), 2u);
  const FileCoverage& tpl = report.files[0];
  EXPECT_EQ(tpl.path, "tpl.cpp");
  EXPECT_EQ(tpl.base, "/tmp/dlflx/g");
  // sq<int> and sq<double> both list lines 2-4 (the binary ran twice: count 2 each).
  EXPECT_EQ(tpl.lines.size(), 11u);
  EXPECT_THAT(counts(tpl), ElementsAre(Pair(2, 4), Pair(3, 4), Pair(4, 4), Pair(6, 2), Pair(7, 2), Pair(8, 2),
                                       Pair(9, 2), Pair(11, 2)));
  EXPECT_THAT(function_summary(tpl),
              ElementsAre("double sq<double>(double) 2-5", "int sq<int>(int) 2-5", "helper(int) 6-6", "main 7-12",
                          "main::{lambda(int)#1}::operator()(int) const 8-10"));
  const FileCoverage& lib = report.files[1];
  EXPECT_EQ(lib.path, "lib.cpp");
  EXPECT_THAT(counts(lib), ElementsAre(Pair(2, 1), Pair(3, 1), Pair(4, 1), Pair(5, 1), Pair(6, 0)));
  EXPECT_THAT(function_summary(lib), ElementsAre("add(int, int) 2-7"));
  EXPECT_THAT(data_files, ElementsAre("tpl.gcda", "p1/tmp/dlflx/g/obj/lib.gcda"));
}

TEST(GcovJson, AppendsAndKeepsDataFilesParallel) {
  CoverageReport report;
  report.files.emplace_back();  // an entry from elsewhere
  std::vector<std::string> data_files;
  parse_gcov_json(data("gcov12_sample.json"), "sample", report, &data_files);
  ASSERT_EQ(report.files.size(), 3u);
  EXPECT_THAT(data_files, ElementsAre("", "tpl.gcda", "p1/tmp/dlflx/g/obj/lib.gcda"));
}

TEST(GcovJson, UnpaddedSliceOfABiggerBuffer) {
  // The parser copies into a padded buffer; a view into the middle of a string works.
  const std::string text = "xx" + data("gcov12_sample.json") + "yy";
  CoverageReport report;
  parse_gcov_json(std::string_view(text).substr(2, text.size() - 4), "slice", report);
  EXPECT_EQ(report.files.size(), 2u);
}

TEST(GcovJson, MalformedDocumentNamesOriginAndDocument) {
  CoverageReport report;
  const std::string good = data("gcov12_sample.json");
  const std::string bad = good.substr(0, good.find('\n') + 1) + "{\"files\": [{\"file\": \"a.cpp\", \"lines\": [}\n";
  try {
    parse_gcov_json(bad, "gcov output for test T", report);
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("gcov output for test T: gcov JSON document 2 is malformed"));
  }
  EXPECT_THROW(parse_gcov_json("{\"files\": [{\"lines\": []}]}\n", "x", report), Error);  // no "file"
}

// Found by fuzz/gcov_json_fuzzer: a count past 2^64 (read as a double) was converted to an
// integer, which is undefined behaviour (UBSan: "3.33333e+67 is outside the range").
TEST(GcovJson, CountsBeyondTwoToThe64Saturate) {
  CoverageReport report;
  parse_gcov_json(R"({"files": [{"file": "a.cpp", "lines": [{"line_number": 2, "count": )"
                  R"(33333333333333333333333333333333333333333333333333333333333333333333}, )"
                  R"({"line_number": 3, "count": 1.5e19}, {"line_number": 4, "count": -2.5}, )"
                  R"({"line_number": 5, "count": 3.3e67}, {"line_number": 6, "count": 0000000000000000000000}]}]})"
                  "\n",
                  "x", report);
  ASSERT_EQ(report.files.size(), 1u);
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  EXPECT_THAT(counts(report.files[0]),
              ElementsAre(Pair(2, kMax), Pair(3, 15000000000000000000ull), Pair(4, 0), Pair(5, kMax), Pair(6, 0)));
}

TEST(GcovJson, EmptyOutputIsNoFiles) {
  CoverageReport report;
  parse_gcov_json("", "x", report);
  parse_gcov_json("\n\n", "x", report);
  EXPECT_TRUE(report.files.empty());
}

TEST(Lcov, LlvmCovExport) {
  CoverageReport report;
  parse_lcov(data("llvm14_sample.lcov"), "sample", report);
  ASSERT_EQ(report.files.size(), 2u);
  EXPECT_EQ(report.files[0].path, "/tmp/dlflx/l/lib.cpp");
  EXPECT_THAT(counts(report.files[0]), ElementsAre(Pair(2, 1), Pair(3, 1), Pair(4, 1), Pair(5, 0), Pair(6, 1),
                                                   Pair(7, 1), Pair(8, 0)));
  EXPECT_EQ(report.files[1].path, "/tmp/dlflx/l/main.cpp");
  EXPECT_EQ(report.files[1].lines.size(), 5u);
  EXPECT_TRUE(report.files[0].functions.empty());  // exported with -skip-functions
}

TEST(Lcov, FunctionsChecksumsAndFormats) {
  CoverageReport report;
  parse_lcov("TN:\nSF:a.cpp\nFN:3,_Z1fv\nFN:10,12,g\nDA:3,5,abcdef\nDA:4,1.8e19\nDA:5,-1\nend_of_record\n", "x",
             report);
  ASSERT_EQ(report.files.size(), 1u);
  EXPECT_THAT(function_summary(report.files[0]), ElementsAre("f() 3-3", "g 10-12"));
  EXPECT_THAT(counts(report.files[0]), ElementsAre(Pair(3, 5), Pair(4, 18000000000000000000ull), Pair(5, 0)));
}

TEST(Lcov, InternalLinkageNamesLoseTheirFilePrefix) {
  // llvm-cov: `FILE:MANGLED` for C++ internal linkage, `FILE:NAME` for a C static function;
  // a demangled C++ name from another tool keeps its `::`.
  CoverageReport report;
  parse_lcov("SF:src/main.c\nFN:3,main.c:run_line\nFN:9,src/a.cpp:_ZL3fooi\nFN:12,ns::bar\nFN:15,/abs/b.c:\n"
             "end_of_record\n",
             "x", report);
  ASSERT_EQ(report.files.size(), 1u);
  EXPECT_THAT(function_summary(report.files[0]),
              ElementsAre("run_line 3-3", "foo(int) 9-9", "ns::bar 12-12", "/abs/b.c: 15-15"));
}

// Found by fuzz/llvm_cov_export_fuzzer: a count past 2^64 was converted to an integer
// (undefined behaviour, UBSan: "1.44444e+55 is outside the range of representable values").
TEST(Lcov, CountsBeyondTwoToThe64SaturateAndNanIsMalformed) {
  CoverageReport report;
  parse_lcov("SF:a.cpp\nDA:1,1.44444e+55\nDA:2,inf\nDA:3,-1e300\nDA:4,1.8446744073709552e19\nend_of_record\n", "x",
             report);
  ASSERT_EQ(report.files.size(), 1u);
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  EXPECT_THAT(counts(report.files[0]), ElementsAre(Pair(1, kMax), Pair(2, kMax), Pair(3, 0), Pair(4, kMax)));
  try {
    parse_lcov("SF:a.cpp\nDA:1,nan\n", "trace.info", report);
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("trace.info:2: malformed DA record 'DA:1,nan'"));
  }
}

TEST(Lcov, MalformedRecordsNameTheLine) {
  CoverageReport report;
  try {
    parse_lcov("SF:a.cpp\nDA:x,1\n", "trace.info", report);
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("trace.info:2: malformed DA record 'DA:x,1'"));
  }
  EXPECT_THROW(parse_lcov("DA:1,1\n", "x", report), Error);
  EXPECT_THROW(parse_lcov("SF:\n", "x", report), Error);
}

TEST(LlvmExport, FunctionExtentsFromCodeRegions) {
  CoverageReport report;
  parse_llvm_export_functions(data("llvm14_export.json"), "sample", report);
  ASSERT_EQ(report.files.size(), 2u);
  EXPECT_EQ(report.files[0].path, "/tmp/dlflx/l/lib.cpp");
  EXPECT_THAT(function_summary(report.files[0]), ElementsAre("add(int, int) 2-7", "twice(int) 8-8"));
  EXPECT_EQ(report.files[1].path, "/tmp/dlflx/l/main.cpp");
  EXPECT_THAT(function_summary(report.files[1]), ElementsAre("main 5-9"));
  EXPECT_TRUE(report.files[0].lines.empty());
}

TEST(LlvmExport, LocalFunctionsLoseTheirFilePrefix) {
  CoverageReport report;
  parse_llvm_export_functions(data("llvm14_static_export.json"), "sample", report);
  ASSERT_EQ(report.files.size(), 1u);
  EXPECT_THAT(function_summary(report.files[0]), ElementsAre("main 2-2", "loc(int) 1-1"));
}

TEST(LlvmExport, AnOpenMpRegionBelongsToTheFunctionAroundIt) {
  // data/llvm_openmp.cpp built with clang 14 -fopenmp: the parallel loop's body (lines
  // 7-9) is the function `.omp_outlined.`, which would own those lines as the innermost
  // function; the fix of a bug there names sum_squares.
  CoverageReport report;
  parse_llvm_export_functions(data("llvm14_openmp_export.json"), "sample", report);
  ASSERT_EQ(report.files.size(), 1u);
  EXPECT_THAT(function_summary(report.files[0]), ElementsAre("sum_squares(int) 4-11", "main 13-16"));
  CoverageReport lcov;
  parse_lcov("SF:omp.cpp\nFN:4,_Z11sum_squaresi\nFN:7,omp.cpp:.omp_outlined.\nFN:7,.omp_task_entry.\nend_of_record\n", "x",
             lcov);
  ASSERT_EQ(lcov.files.size(), 1u);
  EXPECT_THAT(function_summary(lcov.files[0]), ElementsAre("sum_squares(int) 4-4"));
}

TEST(LlvmExport, MalformedInput) {
  CoverageReport report;
  EXPECT_THROW(parse_llvm_export_functions("{\"data\": 3}", "x", report), Error);
  EXPECT_THROW(parse_llvm_export_functions("not json", "x", report), Error);
}

TEST(Demangle, ItaniumNamesAndPassThrough) {
  EXPECT_EQ(demangle("_Z3addii"), "add(int, int)");
  EXPECT_EQ(demangle("_ZZ4mainENKUliE_clEi"), "main::{lambda(int)#1}::operator()(int) const");
  EXPECT_EQ(demangle("main"), "main");
  EXPECT_EQ(demangle("_Znot_really"), "_Znot_really");
}

}  // namespace
}  // namespace dlfl::collect
