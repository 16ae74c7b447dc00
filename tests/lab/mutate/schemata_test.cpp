// The mutant schemata: one build whose mutant N, switched on by DLFL_MUTANT=N, behaves as
// the program with mutant N's patch applied, whose unswitched run is the original's, and
// from which mutants that cannot compile in are dropped one by one.
#include "dlfl/lab/mutate/schemata.h"

#include <algorithm>
#include <set>

#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

// A program printing what its functions compute, with the line it prints from (so a
// schemata that shifted lines would show). `twice` feeds a static_assert: its mutants
// cannot read a run-time switch.
const char* kProgram = R"(#include <cstdio>
constexpr int twice(int x) { return x * 2; }
static_assert(twice(2) == 4);
int clamp(int x, int hi) {
  if (x < hi) return x;
  return hi;
}
int total(int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i)
    sum += i * 2;
  sum += 1;
  return sum;
}
int main() {
  const bool small = total(3) < 10 && clamp(1, 2) == 1;
  std::printf("%d %d %d line=%d\n", clamp(5, 4), total(4), small ? 1 : 0,
              __LINE__);
  return 0;
}
)";

const char* const kCxx = "g++ -std=c++20 -O0";
// C89 and pedantic, as strict as C projects build (berry: -std=c99 -pedantic-errors).
const char* const kStrictC = "gcc -std=c89 -pedantic-errors -Wall -Werror -O0";

// Compiles dir/FILE into dir/prog with `compiler`; "" or the compiler's output.
std::string compile(const std::string& compiler, const fs::path& dir, const std::string& file) {
  std::string out;
  return run(compiler + " -o " + (dir / "prog").string() + " " + (dir / file).string(), &out) == 0 ? "" : out;
}

// Runs dir/prog (with `env`, bounded: some mutants loop): the exit status and output.
std::string run_built(const fs::path& dir, const std::string& env) {
  std::string out;
  const int status = run("cd " + dir.string() + " && " + env + " timeout 5 ./prog", &out);
  return "status " + std::to_string(status) + ": " + out;
}

std::string build_and_run(const std::string& compiler, const fs::path& dir, const std::string& file) {
  const std::string error = compile(compiler, dir, file);
  return error.empty() ? run_built(dir, "") : "does not compile: " + error;
}

TEST(Schemata, EachSwitchRunsItsMutantAndNoSwitchTheOriginal) {
  Project project;
  project.add("main.cpp", kProgram);
  const std::vector<Mutant> all = project.mutants(select_operators({"traditional"}));
  ASSERT_GE(all.size(), 10u);
  SchemataOptions o;
  o.build_dir = project.build();
  o.root = project.root();
  o.tree = project.root() / "schemata";
  const Schemata s = write_schemata(all, o);
  EXPECT_EQ(s.mutants.size() + s.dropped_uncompilable + s.dropped_unguardable, all.size());
  ASSERT_EQ(s.rewritten.size(), 1u);
  ASSERT_GE(s.mutants.size(), all.size() / 2);

  // Numbers are input positions plus one, whatever was dropped.
  for (const SchemataMutant& m : s.mutants) EXPECT_EQ(m.mutant.id, all[m.number - 1].id);
  // Every mutant of the constexpr function was dropped, and only those.
  for (const SchemataMutant& m : s.mutants) EXPECT_NE(m.mutant.line, 2u) << m.mutant.id;
  EXPECT_GE(s.dropped_uncompilable, 1u);

  const fs::path tree = o.tree;
  ASSERT_EQ(compile(kCxx, tree, "main.cpp"), "");
  const fs::path plain = project.root() / "plain";
  fs::create_directories(plain);
  write_text(plain / "main.cpp", kProgram);
  const std::string original = build_and_run(kCxx, plain, "main.cpp");
  EXPECT_EQ(run_built(tree, ""), original);
  EXPECT_EQ(run_built(tree, "DLFL_MUTANT=0"), original);

  // Each mutant against its patch, on a sample of at most 12 spread over the file.
  const std::size_t step = std::max<std::size_t>(1, s.mutants.size() / 12);
  std::size_t differing = 0;
  for (std::size_t k = 0; k < s.mutants.size(); k += step) {
    const SchemataMutant& m = s.mutants[k];
    write_text(plain / "main.cpp", apply_mutant(kProgram, m.mutant));
    const std::string patched = build_and_run(kCxx, plain, "main.cpp");
    EXPECT_EQ(run_built(tree, "DLFL_MUTANT=" + std::to_string(m.number)), patched)
        << m.mutant.id << ": " << m.mutant.original << " -> " << m.mutant.replacement;
    differing += patched != original;
  }
  EXPECT_GT(differing, 0u);  // the sample really changes behaviour
}

// C units get a C switch (a static function, no namespace or lambda), strict C89 with
// -pedantic-errors compiles it, and an lvalue is guarded by its statement, never by a `?:`
// (which C does not allow on the left of `=`); a mutant whose `?:` would mix a pointer and
// an integer (`p` negated), which GCC rejects under -pedantic-errors, is dropped alone.
const char* kCProgram = R"(#include <stdio.h>
static int has(const char* p) {
  if (p) return 1;
  return 0;
}
static int clamp(int x, int hi) {
  if (x < hi) return x;
  return hi;
}
int main(void) {
  int values[3];
  int i;
  int sum = 0;
  for (i = 0; i < 3; ++i)
    values[i] = clamp(i * 2, 3);
  for (i = 0; i < 3; i++)
    sum += values[i];
  printf("%d %d %d line=%d\n", sum, clamp(5, 4), has("x"), __LINE__);
  return 0;
}
)";

TEST(Schemata, CUnitsGetACSwitchAndEachMutantRunsAsItsPatch) {
  Project project;
  project.add("main.c", kCProgram);
  const std::vector<Mutant> all = project.mutants(select_operators({"traditional"}));
  ASSERT_GE(all.size(), 8u);
  SchemataOptions o;
  o.build_dir = project.build();
  o.root = project.root();
  o.tree = project.root() / "schemata";
  const Schemata s = write_schemata(all, o);
  EXPECT_EQ(s.mutants.size() + s.dropped_uncompilable + s.dropped_unguardable, all.size());
  ASSERT_GE(s.mutants.size(), all.size() / 2);
  const std::string text = slurp(o.tree / "main.c");
  EXPECT_NE(text.find("dlfl_schemata_mutant() == 1"), std::string::npos) << text;
  EXPECT_EQ(text.find("namespace"), std::string::npos) << text;
  EXPECT_GE(s.dropped_uncompilable, 1u);

  const fs::path plain = project.root() / "plain";
  fs::create_directories(plain);
  write_text(plain / "main.c", kCProgram);
  const std::string original = build_and_run(kStrictC, plain, "main.c");
  ASSERT_EQ(original.rfind("status 0", 0), 0u) << original;
  ASSERT_EQ(compile(kStrictC, o.tree, "main.c"), "");
  EXPECT_EQ(run_built(o.tree, ""), original);
  std::size_t differing = 0;
  for (const SchemataMutant& m : s.mutants) {
    write_text(plain / "main.c", apply_mutant(kCProgram, m.mutant));
    const std::string patched = build_and_run(kStrictC, plain, "main.c");
    if (patched.starts_with("does not compile")) continue;  // a patch C89 refuses, compiled in alone
    EXPECT_EQ(run_built(o.tree, "DLFL_MUTANT=" + std::to_string(m.number)), patched)
        << m.mutant.id << ": " << m.mutant.original << " -> " << m.mutant.replacement;
    differing += patched != original;
  }
  EXPECT_GT(differing, 0u);
}

// Mutants in a macro's arguments and of whole macro uses (the text written at the use)
// compile into the schemata like any other and run as their patches; the macros' bodies
// hold none. SQUARE expands its argument twice, so a guard there is pasted twice.
const char* kMacroProgram = R"(#include <cstdio>
#define SET(dst, v) ((dst) = (v))
#define ADD(t, x) do { (t) += (x); } while (0)
#define SQUARE(x) ((x) * (x))
int main() {
  int a = 3, t = 0, r = 0;
  SET(r, -a + 1);
  ADD(t, a);
  t += SQUARE(a - 1);
  if (SQUARE(a) > 4) t++;
  std::printf("%d %d\n", r, t);
  return 0;
}
)";

TEST(Schemata, MacroArgumentsAndUsesRunAsTheirPatches) {
  Project project;
  project.add("main.cpp", kMacroProgram);
  const std::vector<Mutant> all = project.mutants(select_operators({"traditional"}));
  std::set<std::uint32_t> lines;
  for (const Mutant& m : all) lines.insert(m.line);
  EXPECT_EQ(lines.count(2) + lines.count(3) + lines.count(4), 0u) << "a macro's body was mutated";
  for (const std::uint32_t line : {7u, 8u, 9u, 10u}) EXPECT_EQ(lines.count(line), 1u) << "no mutant on line " << line;
  SchemataOptions o;
  o.build_dir = project.build();
  o.root = project.root();
  o.tree = project.root() / "schemata";
  const Schemata s = write_schemata(all, o);
  EXPECT_EQ(s.dropped_unguardable, 0u);
  EXPECT_EQ(s.mutants.size() + s.dropped_uncompilable, all.size());
  ASSERT_EQ(compile(kCxx, o.tree, "main.cpp"), "");
  const fs::path plain = project.root() / "plain";
  fs::create_directories(plain);
  write_text(plain / "main.cpp", kMacroProgram);
  const std::string original = build_and_run(kCxx, plain, "main.cpp");
  EXPECT_EQ(run_built(o.tree, ""), original);
  std::size_t differing = 0;
  for (const SchemataMutant& m : s.mutants) {
    write_text(plain / "main.cpp", apply_mutant(kMacroProgram, m.mutant));
    const std::string patched = build_and_run(kCxx, plain, "main.cpp");
    EXPECT_EQ(run_built(o.tree, "DLFL_MUTANT=" + std::to_string(m.number)), patched)
        << m.mutant.id << ": " << m.mutant.original << " -> " << m.mutant.replacement;
    differing += patched != original;
  }
  EXPECT_GT(differing, s.mutants.size() / 2);
}

TEST(Schemata, TreeHoldsTheOtherFilesAndAnUnchangedRunKeepsTimes) {
  Project project;
  project.add("lib.h", "inline int one() { return 1; }\n");
  project.add("a.cpp", "#include \"lib.h\"\nint f(int x) { return x + one(); }\n");
  project.add("b.cpp", "int g(int y) { return y; }\n");
  const auto mutants = project.mutants(select_operators({"arithmetic_replace"}), {"a.cpp"});
  ASSERT_FALSE(mutants.empty());
  SchemataOptions o;
  o.build_dir = project.build();
  o.root = project.root();
  o.tree = project.root() / "out" / "tree";
  const Schemata s = write_schemata(mutants, o);
  ASSERT_EQ(s.mutants.size(), mutants.size());
  EXPECT_EQ(slurp(o.tree / "b.cpp"), slurp(project.root() / "b.cpp"));
  EXPECT_EQ(slurp(o.tree / "lib.h"), slurp(project.root() / "lib.h"));
  EXPECT_FALSE(fs::exists(o.tree / "build" / "compile_commands.json"));  // build outputs stay out
  const std::string text = slurp(o.tree / "a.cpp");
  EXPECT_NE(text.find("::dlfl_schemata::mutant() == 1"), std::string::npos) << text;
  const auto time = fs::last_write_time(o.tree / "a.cpp");
  write_schemata(mutants, o);
  EXPECT_EQ(fs::last_write_time(o.tree / "a.cpp"), time);
  // Without mutants the file is the original again.
  write_schemata({}, o);
  EXPECT_EQ(slurp(o.tree / "a.cpp"), slurp(project.root() / "a.cpp"));
}

}  // namespace
}  // namespace dlfl::mutate::testing
