// `dlfl mutate` as a user runs it: listing, writing patches + manifest, sampling, errors.
#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

std::string dlfl(const std::string& args, int* status, std::string* err = nullptr) {
  static const fs::path err_file = fs::temp_directory_path() / ("dlfl-mutate-cli-" + std::to_string(getpid()));
  std::string out;
  // The subshell keeps the command's stderr apart from run()'s combined output.
  *status = run("(" + std::string(DLFL_BINARY) + " " + args + " 2>" + err_file.string() + ")", &out);
  if (err) *err = slurp(err_file);
  fs::remove(err_file);
  return out;
}

const char* const kSource =
    "#include <cmath>\n"
    "double norm(double var, double eps) { return 1.0 / std::sqrt(var + eps); }\n"
    "void sgd(double* w, const double* g, int n, double lr) {\n"
    "  for (int i = 0; i < n; ++i) w[i] -= lr * g[i];\n"
    "}\n";

TEST(MutateCommand, ListsOperators) {
  int status = 0;
  const std::string out = dlfl("mutate --list-operators", &status);
  EXPECT_EQ(status, 0);
  for (const auto& info : operator_catalog()) {
    EXPECT_NE(out.find(std::string(info.name)), std::string::npos) << info.name;
  }
  EXPECT_NE(out.find("numerics"), std::string::npos);
}

TEST(MutateCommand, WritesPatchesAndGroundTruth) {
  Project p;
  p.add("src/n.cpp", kSource);
  const fs::path out = p.root() / "mutants";
  int status = 0;
  std::string err;
  const std::string printed = dlfl("mutate -p " + p.build().string() + " --root " + p.root().string() +
                                       " --files 'src/*.cpp' --operators numerics,training --out " + out.string(),
                                   &status, &err);
  ASSERT_EQ(status, 0) << err;
  EXPECT_NE(printed.find("mutants.jsonl"), std::string::npos);
  EXPECT_NE(err.find("numerics 2 (misplace_epsilon 1, remove_epsilon 1)"), std::string::npos) << err;
  const auto mutants = read_manifest(out / "mutants.jsonl");
  ASSERT_FALSE(mutants.empty());
  for (const auto& m : mutants) {
    EXPECT_TRUE(m.bug_type == BugType::numerics || m.bug_type == BugType::training) << m.op;
    std::string log;
    EXPECT_EQ(run("cd " + p.root().string() + " && patch -p1 --dry-run --batch < " + (out / (m.id + ".patch")).string(),
                  &log),
              0)
        << log;
  }
  const auto misplaced =
      std::find_if(mutants.begin(), mutants.end(), [](const Mutant& m) { return m.op == "misplace_epsilon"; });
  ASSERT_NE(misplaced, mutants.end());
  EXPECT_EQ(misplaced->file, "src/n.cpp");
  EXPECT_EQ(misplaced->line, 2u);
  EXPECT_EQ(misplaced->replacement, "(std::sqrt(var) + eps)");
  EXPECT_EQ(misplaced->function, "norm");
}

TEST(MutateCommand, MaxAndSeedAreReproducible) {
  Project p;
  p.add("n.cpp", kSource);
  const std::string base = "mutate -q -p " + p.build().string() + " --root " + p.root().string() + " --max 5";
  int status = 0;
  const std::string a = dlfl(base + " --seed 3", &status);
  ASSERT_EQ(status, 0);
  EXPECT_EQ(a, dlfl(base + " --seed 3", &status));
  EXPECT_EQ(std::count(a.begin(), a.end(), '\n'), 5);
  const std::string all = dlfl("mutate -q -p " + p.build().string() + " --root " + p.root().string(), &status);
  EXPECT_GT(std::count(all.begin(), all.end(), '\n'), 5);
}

TEST(MutateCommand, ErrorsAreOneLineAndExitTwo) {
  Project p;
  p.add("n.cpp", kSource);
  int status = 0;
  std::string err;
  dlfl("mutate -p " + p.build().string() + " --operators bogus", &status, &err);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.rfind("dlfl: error: unknown mutation operator 'bogus'", 0), 0u) << err;
  dlfl("mutate -p " + (p.root() / "missing").string() + " --root " + p.root().string(), &status, &err);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("dlfl: error: " + (p.root() / "missing" / "compile_commands.json").string() + ": "),
            std::string::npos)
      << err;
  dlfl("mutate --root " + p.root().string(), &status, &err);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("--build-dir"), std::string::npos) << err;
}

}  // namespace
}  // namespace dlfl::mutate::testing
