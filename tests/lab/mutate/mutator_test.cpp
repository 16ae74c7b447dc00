// find_mutants as a whole: file selection, macros and system headers, merging operators'
// identical edits, ids, determinism and errors.
#include "dlfl/error.h"
#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

std::vector<std::string> ids(const std::vector<Mutant>& mutants) {
  std::vector<std::string> out;
  for (const auto& m : mutants) out.push_back(m.id);
  return out;
}

TEST(FindMutants, MacroArgumentsAreMutatedTheirBodiesNever) {
  Project p;
  p.add("m.cpp",
        "#define TWICE(x) ((x) + (x))\n"
        "#define LIMIT 10\n"
        "int f(int a) { return TWICE(a - 1) * LIMIT; }\n");
  const auto mutants = p.mutants({Operator::arithmetic_replace, Operator::constant_replace});
  // The `-` and `1` written in TWICE's argument (expanded twice, mutated once) and the `*`
  // between the two uses; TWICE's `+` and LIMIT's `10` are in the macros' bodies.
  std::vector<std::string> edits;
  for (const auto& m : mutants) edits.push_back(m.original + " -> " + m.replacement);
  EXPECT_EQ(edits, (std::vector<std::string>{"- -> +", "1 -> 0", "1 -> 2", "* -> /"}));
  for (const auto& m : mutants) EXPECT_EQ(m.line, 3u);
}

TEST(FindMutants, NothingInSystemHeaders) {
  Project p;
  p.add("sys/lib.h", "inline int g(int a) { return a + 1; }\n");
  p.set_flags({"-isystem", (p.root() / "sys").string()});
  p.add("a.cpp", "#include <lib.h>\nint f(int a) { return g(a) - 2; }\n");
  const auto mutants = p.mutants({Operator::arithmetic_replace});
  ASSERT_EQ(mutants.size(), 1u);
  EXPECT_EQ(mutants[0].file, "a.cpp");
}

TEST(FindMutants, GlobsSelectHeadersThroughTheUnitsThatIncludeThem) {
  Project p;
  p.add("include/ops.h", "inline int twice(int a) { return a * 2; }\n");
  p.add("src/a.cpp", "#include \"include/ops.h\"\nint f(int a) { return twice(a) + 1; }\n");
  p.add("tests/t.cpp", "#include \"include/ops.h\"\nint t() { return twice(3) - 3; }\n");
  const auto headers = p.mutants({Operator::arithmetic_replace}, {"include/**"});
  ASSERT_EQ(headers.size(), 1u) << "the header is mutated once, though two units include it";
  EXPECT_EQ(headers[0].file, "include/ops.h");
  EXPECT_EQ(headers[0].function, "twice");

  const auto sources = p.mutants({Operator::arithmetic_replace}, {"src/*.cpp"});
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0].file, "src/a.cpp");

  MutateOptions o;
  o.build_dir = p.build();
  o.root = p.root();
  o.exclude = {"tests/**"};
  o.operators = {Operator::arithmetic_replace};
  const auto all = find_mutants(o);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].file, "include/ops.h");
  EXPECT_EQ(all[1].file, "src/a.cpp");
}

TEST(FindMutants, IdenticalEditsKeepTheMoreSpecificOperator) {
  Project p;
  p.add("g.cpp",
        "void linear_backward(double* dw, const double* g, int n) {\n"
        "  for (int i = 0; i < n; ++i) dw[i] += g[i];\n"
        "}\n");
  const auto mutants = p.mutants(
      {Operator::gradient_sign, Operator::arithmetic_replace, Operator::loop_bound, Operator::relational_replace});
  std::map<std::string, std::string> op_of;
  for (const auto& m : mutants) op_of[m.original + "->" + m.replacement] = m.op;
  EXPECT_EQ(op_of.at("+=->-="), "gradient_sign");
  EXPECT_EQ(op_of.at("<-><="), "loop_bound");
  EXPECT_EQ(op_of.at("<->>"), "relational_replace");
  EXPECT_EQ(mutants.size(), 6u);  // += once, < five times
}

TEST(FindMutants, IdsAreStableNamesAndRunsAreDeterministic) {
  Project p;
  p.add("src/k.cpp", "int f(int a, int b) { return a < b ? a + 1 : b - 1; }\n");
  const auto first = p.mutants({});
  const auto second = p.mutants({});
  EXPECT_EQ(ids(first), ids(second));
  ASSERT_FALSE(first.empty());
  const auto names = ids(first);
  const std::set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), first.size());
  const auto it = std::find_if(first.begin(), first.end(), [](const Mutant& m) { return m.op == "constant_replace"; });
  ASSERT_NE(it, first.end());
  EXPECT_EQ(it->id, "src_k_cpp-L1-constant_replace-1");
  EXPECT_EQ(it->function, "f");
}

TEST(FindMutants, ErrorsNameTheProblem) {
  Project p;
  MutateOptions o;
  o.build_dir = p.root() / "nowhere";
  o.root = p.root();
  EXPECT_THROW(find_mutants(o), Error);
  p.add("bad.cpp", "int f( { return 0; }\n");
  o.build_dir = p.build();
  try {
    find_mutants(o);
    ADD_FAILURE() << "a unit with errors must fail";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.cpp"), std::string::npos) << e.what();
  }
  o.files = {"nothing/*.cpp"};
  EXPECT_THROW(find_mutants(o), Error);
}

TEST(SelectOperators, NamesTypesAndGroups) {
  EXPECT_EQ(select_operators({}).size(), kOperatorCount);
  EXPECT_EQ(select_operators({"all"}).size(), kOperatorCount);
  EXPECT_EQ(select_operators({"gpu"}),
            (std::vector<Operator>{Operator::remove_syncthreads, Operator::remove_bounds_check,
                                   Operator::thread_index_off_by_one, Operator::ceil_div}));
  EXPECT_EQ(select_operators({"swap_in_out,ceil_div"}),
            (std::vector<Operator>{Operator::ceil_div, Operator::swap_in_out}));
  for (Operator op : select_operators({"dl"})) EXPECT_TRUE(is_dl(operator_info(op).bug_type));
  for (Operator op : select_operators({"traditional"})) EXPECT_FALSE(is_dl(operator_info(op).bug_type));
  EXPECT_THROW(select_operators({"gpu,bogus"}), Error);
}

TEST(OperatorCatalog, EveryDlBugTypeHasAnOperator) {
  std::set<BugType> types;
  for (const auto& info : operator_catalog()) types.insert(info.bug_type);
  for (BugType t : {BugType::tensor, BugType::training, BugType::model, BugType::api, BugType::gpu, BugType::numerics,
                    BugType::traditional})
    EXPECT_TRUE(types.count(t)) << to_string(t);
}

}  // namespace
}  // namespace dlfl::mutate::testing
