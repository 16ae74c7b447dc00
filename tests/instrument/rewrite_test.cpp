// Probe placement details and the instrumenter's contract: lines keep their numbers,
// macros and coroutines stay untouched, headers are probed once, errors are loud.
#include <gtest/gtest.h>

#include "dlfl/error.h"
#include "dlfl/instrument/instrumenter.h"
#include "instrument_test_support.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;

// A one-file project: instruments `code` (as a.cpp, with `header` as a.h) and returns
// the rewritten a.cpp without the prologue; `result` receives the run's summary.
std::string instrument_snippet(const TempDir& tmp, const std::string& code, instrument::InstrumentResult* result = nullptr,
                               const std::string& header = "") {
  write_text(tmp / "src/a.cpp", code);
  if (!header.empty()) write_text(tmp / "src/a.h", header);
  write_compile_commands(tmp / "src", {"a.cpp"}, "g++", "-std=c++20");
  instrument::InstrumentOptions o;
  o.build_dir = tmp / "src";
  o.out_dir = tmp / "out";
  const auto r = instrument::instrument(o);
  if (result) *result = r;
  const std::string text = slurp(tmp / "out/a.cpp");
  return text.substr(text.find('\n', text.find("#line 1")) + 1);
}

TEST(Rewrite, EveryOriginalLineKeepsItsNumber) {
  TempDir tmp;
  const std::string code =
      "int f(int x) {\n"
      "  if (x)\n"
      "    return 1;\n"
      "  for (;;)\n"
      "    if (x > 3) break; else x++;\n"
      "  return 0;\n"
      "}\n";
  const std::string out = instrument_snippet(tmp, code);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), std::count(code.begin(), code.end(), '\n'));
  EXPECT_NE(out.find("    { __dlfl_map[1].hit = 1; return 1; }\n"), std::string::npos) << out;
  EXPECT_NE(out.find("{ __dlfl_map[3].hit = 1; if (x > 3) { __dlfl_map[4].hit = 1; break; } else { __dlfl_map[5].hit = 1; x++; } }"),
            std::string::npos)
      << out;
  // The prologue ends with #line, so diagnostics and __LINE__ name the original lines.
  EXPECT_NE(slurp(tmp / "out/a.cpp").find("#line 1 \"" + (tmp / "src/a.cpp").string() + "\""), std::string::npos);
}

TEST(Rewrite, NoProbeInsideAMacroExpansion) {
  TempDir tmp;
  const std::string out = instrument_snippet(tmp,
                                             "#define GUARD(x) do { if (!(x)) return -1; } while (0)\n"
                                             "#define HALF_STATEMENT(x) x = 1; x +=\n"
                                             "#define FUNCTION(name) int name() { return 7; }\n"
                                             "FUNCTION(seven)\n"
                                             "int f(int x) {\n"
                                             "  GUARD(x > 0);\n"
                                             "  HALF_STATEMENT(x) 2;\n"
                                             "  return x;\n"
                                             "}\n");
  EXPECT_NE(out.find("__dlfl_map[0].hit = 1; GUARD(x > 0);"), std::string::npos) << out;  // before the invocation
  EXPECT_NE(out.find("  HALF_STATEMENT(x) 2;"), std::string::npos) << out;             // starts or ends inside: skipped
  EXPECT_NE(out.find("FUNCTION(seven)\n"), std::string::npos) << out;                  // body inside a macro
  EXPECT_EQ(out.find("#define GUARD(x) do { if (!(x)) return -1; } while (0)\n"), 0u) << out;
}

TEST(Rewrite, CoroutinesAndConstevalAreLeftUntouched) {
  TempDir tmp;
  instrument::InstrumentResult r;
  const std::string code =
      "#include <coroutine>\n"
      "struct Task {\n"
      "  struct promise_type {\n"
      "    Task get_return_object() { return {}; }\n"
      "    std::suspend_never initial_suspend() { return {}; }\n"
      "    std::suspend_never final_suspend() noexcept { return {}; }\n"
      "    void return_void() {}\n"
      "    void unhandled_exception() {}\n"
      "  };\n"
      "};\n"
      "Task run() { co_return; }\n"
      "consteval int k() { return 1; }\n";
  const std::string out = instrument_snippet(tmp, code, &r);
  EXPECT_NE(out.find("Task run() { co_return; }"), std::string::npos) << out;
  EXPECT_NE(out.find("consteval int k() { return 1; }"), std::string::npos) << out;
  EXPECT_EQ(r.skipped_functions, 2u);
}

TEST(Rewrite, HeaderTemplatesAreProbedOnceInTheTemplate) {
  TempDir tmp;
  instrument::InstrumentResult r;
  instrument_snippet(tmp,
                     "#include \"a.h\"\n"
                     "int use() { return twice(1) + static_cast<int>(twice(2.0)); }\n",
                     &r,
                     "template <typename T> T twice(T x) {\n"
                     "  return x + x;\n"
                     "}\n");
  const std::string header = slurp(tmp / "out/a.h");
  // The count leaves room for the ids of later edits: a page at least (rewrite.h).
  EXPECT_EQ(header.find("#define DLFL_RT_PROBE_COUNT 4096\n"), 0u) << header;
  EXPECT_NE(header.find("template <typename T> T twice(T x) {\n  __dlfl_map[1].hit = 1; return x + x;\n}"),
            std::string::npos)
      << header;
  EXPECT_EQ(r.probes, 2u);
}

TEST(Rewrite, ErrorsAreLoud) {
  TempDir tmp;
  instrument::InstrumentOptions o;
  o.build_dir = tmp / "nowhere";
  o.out_dir = tmp / "out";
  EXPECT_THROW(instrument::instrument(o), Error);  // no compilation database

  write_text(tmp / "src/a.cpp", "int f() { return undeclared; }\n");
  write_compile_commands(tmp / "src", {"a.cpp"}, "g++", "-std=c++20");
  o.build_dir = tmp / "src";
  o.log = [](std::string_view) {};
  EXPECT_THROW(instrument::instrument(o), Error);  // clang errors
  o.allow_errors = true;
  EXPECT_NO_THROW(instrument::instrument(o));
  o.allow_errors = false;

  write_text(tmp / "src/a.cpp", "int f() { return 1; }\n");
  o.sources = {"b.cpp"};
  EXPECT_THROW(instrument::instrument(o), Error);  // not in the database
  o.sources = {};
  o.out_dir = tmp.path();
  o.root = tmp / "src";
  EXPECT_THROW(instrument::instrument(o), Error);  // output would contain the sources
}

}  // namespace
