// Placing mutants in instrumented copies: the probes the instrumenter inserts are stepped
// over, the edit lands on the same bytes as in the original, and edits that cannot be
// placed safely are refused with a reason.
#include "dlfl/lab/bench/instrumented_edit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace dlfl::bench {
namespace {

using ::testing::HasSubstr;

// The prologue rewrite.cpp writes: two #defines, the include, then `#line 1`.
const std::string kPrologue =
    "#define DLFL_RT_PROBE_COUNT 9\n#define DLFL_RT_MAP_ID 0x00000000000000ffull\n"
    "#include <dlfl_rt/probe.h>\n#line 1 \"/src/f.cpp\"\n";

const std::string kOriginal =
    "int f(int a, int b) {\n"
    "  int s = a + b;\n"
    "  if (s > 0) return s * 2;\n"
    "  return -s;\n"
    "}\n";

// As the instrumenter writes it: a probe before each statement, the single-statement
// `if` body wrapped in braces with its probe.
const std::string kInstrumented = kPrologue +
                                  "int f(int a, int b) {\n"
                                  "  __dlfl_map[0].hit = 1; int s = a + b;\n"
                                  "  __dlfl_map[1].hit = 1; if (s > 0) { __dlfl_map[2].hit = 1; return s * 2; }\n"
                                  "  __dlfl_map[3].hit = 1; return -s;\n"
                                  "}\n";

// The mutant replacing the `occurrence`-th (0-based) `needle` of `text`.
mutate::Mutant mutant_of(const std::string& text, const std::string& needle, const std::string& replacement,
                         int occurrence = 0) {
  std::size_t at = text.find(needle);
  for (int i = 0; i < occurrence; ++i) at = text.find(needle, at + 1);
  EXPECT_NE(at, std::string::npos) << needle;
  mutate::Mutant m;
  m.id = "m";
  m.file = "f.cpp";
  m.offset = at;
  m.original = needle;
  m.replacement = replacement;
  m.line = static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 1);
  m.end_line = m.line + static_cast<std::uint32_t>(std::count(needle.begin(), needle.end(), '\n'));
  return m;
}

// The expected result: the instrumented text with `from` (unique in it) replaced.
std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  std::string out = text;
  const auto at = out.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(out.find(from, at + 1), std::string::npos) << from << " is not unique";
  return out.replace(at, from.size(), to);
}

TEST(InstrumentedEdit, EditAfterAProbeOnTheSameLine) {
  const auto edit = apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, "a + b", "a - b"));
  ASSERT_TRUE(edit.ok) << edit.reason;
  EXPECT_EQ(edit.text, replaced(kInstrumented, "int s = a + b;", "int s = a - b;"));
}

TEST(InstrumentedEdit, EditInsideAWrappedBody) {
  const auto edit = apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, "s * 2", "s / 2"));
  ASSERT_TRUE(edit.ok) << edit.reason;
  EXPECT_EQ(edit.text, replaced(kInstrumented, "return s * 2;", "return s / 2;"));
  const auto cond = apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, ">", ">="));
  ASSERT_TRUE(cond.ok) << cond.reason;
  EXPECT_EQ(cond.text, replaced(kInstrumented, "(s > 0)", "(s >= 0)"));
}

// Deleting a whole statement keeps its probe (before it) and the wrapper's ` }` (after).
TEST(InstrumentedEdit, StatementDeletionKeepsProbeAndBraces) {
  const auto edit = apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, "return s * 2;", ""));
  ASSERT_TRUE(edit.ok) << edit.reason;
  EXPECT_EQ(edit.text, replaced(kInstrumented, "__dlfl_map[2].hit = 1; return s * 2; }", "__dlfl_map[2].hit = 1;  }"));
}

// `dlfl mutate` deletes a statement with its indentation and line break; the probe after
// the indentation stays, so the deleted statement's line is still reached.
TEST(InstrumentedEdit, DeletedLineKeepsItsProbe) {
  const auto edit = apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, "  return -s;\n", ""));
  ASSERT_TRUE(edit.ok) << edit.reason;
  EXPECT_EQ(edit.text, replaced(kInstrumented, "__dlfl_map[3].hit = 1; return -s;\n", "__dlfl_map[3].hit = 1; \n"));
  // An edit is placed by what it changes: the shared "s " and " 2" play no part.
  const auto minimal = apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, "s * 2", "s / 2"));
  ASSERT_TRUE(minimal.ok) << minimal.reason;
  EXPECT_EQ(minimal.text, replaced(kInstrumented, "s * 2;", "s / 2;"));
}

// A probe inside the edited bytes goes with them (a deleted block's probes are dead).
TEST(InstrumentedEdit, EditSpanningAProbeReplacesIt) {
  const auto edit =
      apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, "a + b;\n  if (s > 0)", "a;\n  if (1)"));
  ASSERT_TRUE(edit.ok) << edit.reason;
  EXPECT_EQ(edit.text, replaced(kInstrumented, "a + b;\n  __dlfl_map[1].hit = 1; if (s > 0)", "a;\n  if (1)"));
  // The whole wrapped statement with its braces: balanced, fine.
  const auto whole = apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, "if (s > 0) return s * 2;", ""));
  ASSERT_TRUE(whole.ok) << whole.reason;
  EXPECT_EQ(whole.text, replaced(kInstrumented, "if (s > 0) { __dlfl_map[2].hit = 1; return s * 2; }", ""));
}

// Taking the wrapper's `{ ` but not its ` }` (or the reverse) would unbalance the braces.
TEST(InstrumentedEdit, RefusesToSplitTheInstrumentersBraces) {
  const auto opener = apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, "0) return", "1) throw"));
  EXPECT_FALSE(opener.ok);
  EXPECT_THAT(opener.reason, HasSubstr("opens a block"));
  const auto closer =
      apply_to_instrumented(kOriginal, kInstrumented, mutant_of(kOriginal, "2;\n  return", "3;\n  throw"));
  EXPECT_FALSE(closer.ok);
  EXPECT_THAT(closer.reason, HasSubstr("ends a block"));
}

// A `{ ` of the original right before a probe is not mistaken for the wrapper's.
TEST(InstrumentedEdit, OriginalBraceBeforeAProbe) {
  const std::string original = "void g(bool x) {\n  if (x) { y(); }\n}\n";
  const std::string instrumented = kPrologue +
                                   "void g(bool x) {\n"
                                   "  __dlfl_map[0].hit = 1; if (x) { __dlfl_map[1].hit = 1; y(); }\n"
                                   "}\n";
  const auto edit = apply_to_instrumented(original, instrumented, mutant_of(original, "y()", "z()"));
  ASSERT_TRUE(edit.ok) << edit.reason;
  EXPECT_EQ(edit.text, replaced(instrumented, "y();", "z();"));
  const auto neg = apply_to_instrumented(original, instrumented, mutant_of(original, "x", "!x", 1));
  ASSERT_TRUE(neg.ok) << neg.reason;
  EXPECT_EQ(neg.text, replaced(instrumented, "if (x)", "if (!x)"));
}

TEST(InstrumentedEdit, GuardedAndMacroProbes) {
  const std::string original = "  T v = p[i];\n  q = v;\n";
  const std::string instrumented = kPrologue +
                                   "  (void)(__builtin_is_constant_evaluated() ? 0 : (__dlfl_map[7].hit = 1)); T v = p[i];\n"
                                   "  DLFL_RT_PROBE(8); q = v;\n";
  const auto first = apply_to_instrumented(original, instrumented, mutant_of(original, "p[i]", "p[i + 1]"));
  ASSERT_TRUE(first.ok) << first.reason;
  EXPECT_EQ(first.text, replaced(instrumented, "p[i]", "p[i + 1]"));
  const auto second = apply_to_instrumented(original, instrumented, mutant_of(original, "q = v", "q = -v"));
  ASSERT_TRUE(second.ok) << second.reason;
  EXPECT_EQ(second.text, replaced(instrumented, "q = v", "q = -v"));
}

// Line numbers must not move: the probe map names original lines.
TEST(InstrumentedEdit, KeepsLineNumbers) {
  const std::string original = "  int s = a +\n      b;\n  return s;\n";
  const std::string instrumented = kPrologue + "  __dlfl_map[0].hit = 1; int s = a +\n      b;\n  __dlfl_map[1].hit = 1; return s;\n";
  const auto joined = apply_to_instrumented(original, instrumented, mutant_of(original, "a +\n      b", "a"));
  ASSERT_TRUE(joined.ok) << joined.reason;
  EXPECT_EQ(joined.text, replaced(instrumented, "a +\n      b;", "a \n;"));
  const auto split = apply_to_instrumented(original, instrumented, mutant_of(original, "return s", "return\ns"));
  EXPECT_FALSE(split.ok);
  EXPECT_THAT(split.reason, HasSubstr("adds line breaks"));
}

TEST(InstrumentedEdit, RefusesAMutantTheOriginalDoesNotHold) {
  auto m = mutant_of(kOriginal, "a + b", "a - b");
  m.original = "a * b";
  const auto edit = apply_to_instrumented(kOriginal, kInstrumented, m);
  EXPECT_FALSE(edit.ok);
  EXPECT_THAT(edit.reason, HasSubstr("does not hold"));
  // A copy that is not the original plus probes cannot be aligned.
  const auto other = apply_to_instrumented(kOriginal, kPrologue + "int f(int a, int b) {\n  int s = b + a;\n",
                                           mutant_of(kOriginal, "a + b", "a - b"));
  EXPECT_FALSE(other.ok);
  EXPECT_THAT(other.reason, HasSubstr("does not match"));
}

// Files the instrumenter did not rewrite are plain copies: the edit is the plain edit.
TEST(InstrumentedEdit, UninstrumentedCopy) {
  const auto m = mutant_of(kOriginal, "-s", "s");
  const auto edit = apply_to_instrumented(kOriginal, kOriginal, m);
  ASSERT_TRUE(edit.ok) << edit.reason;
  EXPECT_EQ(edit.text, mutate::apply_mutant(kOriginal, m));
}

}  // namespace
}  // namespace dlfl::bench
