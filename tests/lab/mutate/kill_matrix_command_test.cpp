// `dlfl kill-matrix`: one-line errors for bad input, and end to end on the bundled
// example: tensorlite built with its seeded fault adam_bias_correction (src/adam.cpp:34),
// a gcov spectrum of the tests that run the optimizer, a schemata build of the top tie's
// mutants, and `dlfl rank --mutation hybrid`, which must put the faulty line first in a
// tie smaller than the SBFL one. The builds stay in the test's build directory, so reruns
// are incremental.
#include <cstdlib>
#include <map>
#include <set>

#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

const fs::path kTensorlite = fs::path(DLFL_SOURCE_DIR) / "examples" / "tensorlite";
const std::string kDlfl = DLFL_BINARY;

bool have(const std::string& program) { return run("command -v " + program) == 0; }

// The CSV ranking's rows of src/adam.cpp: line → (best, worst).
std::map<std::uint32_t, std::pair<int, int>> adam_positions(const std::string& csv) {
  std::map<std::uint32_t, std::pair<int, int>> out;
  std::istringstream in(csv);
  std::string row;
  std::getline(in, row);  // header: rank,rank_best,rank_worst,element,file,line,...
  while (std::getline(in, row)) {
    // The element name is quoted and holds commas: take the fields after it from `,src/adam.cpp,`.
    const auto at = row.find(",src/adam.cpp,");
    if (at == std::string::npos) continue;
    std::istringstream head(row.substr(0, row.find(",\"")));
    std::string rank, best, worst;
    std::getline(head, rank, ',');
    std::getline(head, best, ',');
    std::getline(head, worst, ',');
    const std::string rest = row.substr(at + std::string(",src/adam.cpp,").size());
    out[static_cast<std::uint32_t>(std::stoul(rest))] = {std::stoi(best), std::stoi(worst)};
  }
  return out;
}

TEST(KillMatrixCommand, BadInputFailsInOneLine) {
  dlfl::testing::TempDir dir("kill-matrix");
  write_text(dir / "bad.dlfl", "not a spectrum");
  const std::string base = kDlfl + " kill-matrix -q -p " + dir.path().string() + " -o " + (dir / "out").string() +
                           " --build true ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {base + "-s " + (dir / "bad.dlfl").string(), "--gtest BINARY, --ctest DIR or --tests FILE"},
      {base + "-s " + (dir / "bad.dlfl").string() + " --gtest t --ctest d", "--gtest BINARY, --ctest DIR or --tests FILE"},
      {base + "-s " + (dir / "bad.dlfl").string() + " --tests names.txt", "go together"},
      {base + "-s " + (dir / "bad.dlfl").string() + " --tests names.txt --cmd 'run-one'", "has no {} for the test name"},
      {base + "-s " + (dir / "bad.dlfl").string() + " --gtest t --lines src/a.cpp", "expected FILE:LINE"},
      {base + "-s " + (dir / "bad.dlfl").string() + " --gtest t --lines src/a.cpp:0", "expected FILE:LINE"},
      {base + "-s " + (dir / "bad.dlfl").string() + " --gtest t --formula nosuch", "nosuch"},
      {base + "-s " + (dir / "bad.dlfl").string() + " --gtest t", "bad.dlfl"},
  };
  for (const auto& [command, what] : cases) {
    std::string out;
    EXPECT_EQ(run(command, &out), 2) << command << "\n" << out;
    EXPECT_EQ(out.rfind("dlfl: error: ", 0), 0u) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
    EXPECT_NE(out.find(what), std::string::npos) << out;
  }
  EXPECT_FALSE(fs::exists(dir / "out" / "kill-matrix.dlfl"));
}

TEST(KillMatrixTensorlite, HybridPutsTheSeededFaultFirstInASmallerTie) {
  if (!have("cmake") || !have("ninja") || !have("gcov")) GTEST_SKIP() << "needs cmake, ninja and gcov";
  if (!fs::exists(kTensorlite / "CMakeLists.txt")) GTEST_SKIP() << "examples/tensorlite is not there";
  const fs::path dir = fs::path(DLFL_E2E_DIR);
  fs::create_directories(dir);
  const std::string launcher = have("ccache") ? " -DCMAKE_CXX_COMPILER_LAUNCHER=ccache" : "";
  const std::string fault = " -DTENSORLITE_WARNINGS=OFF -DTENSORLITE_FAULT=adam_bias_correction -DCMAKE_BUILD_TYPE=";
  std::string out;
  ASSERT_EQ(run("(cmake -S " + kTensorlite.string() + " -B " + (dir / "gcov").string() +
                    " -G Ninja \"-DCMAKE_CXX_FLAGS=-O0 --coverage\" -DCMAKE_EXE_LINKER_FLAGS=--coverage" + fault +
                    launcher + " && cmake --build " + (dir / "gcov").string() + " -j2 --target tensorlite_tests)",
                &out),
            0)
      << out;
  // The optimizer's tests: every test that runs Adam::step, and a few that do not.
  const fs::path spectrum = dir / "sfl.dlfl";
  ASSERT_EQ(run(kDlfl + " collect -j2 --gtest " + (dir / "gcov" / "tensorlite_tests").string() +
                    " --filter 'Adam*:Sgd*:Training*' --source-root " + kTensorlite.string() +
                    " --exclude 'tests/*' -o " + spectrum.string(),
                &out),
            0)
      << out;

  // A small budget: the top tie (the 20 lines of Adam::step), 3 mutants a line.
  const fs::path mbfl = dir / "mbfl";
  const std::string build = "cmake -S {tree} -B {out}/build -G Ninja -DCMAKE_CXX_FLAGS=-O0" + fault + launcher +
                            " >/dev/null && cmake --build {out}/build -j2 --target tensorlite_tests >/dev/null";
  const std::string kill_matrix = kDlfl + " kill-matrix -q -j2 --budget 10 --per-line 3 -s " + spectrum.string() +
                                  " -p " + (dir / "gcov").string() + " --root " + kTensorlite.string() + " -o " +
                                  mbfl.string() + " --build '" + build + "' --gtest '{out}/build/tensorlite_tests'";
  // --regenerate: mutants made by this dlfl, not read back from an earlier test run.
  ASSERT_EQ(run(kill_matrix + " --regenerate", &out), 0) << out;
  const nlohmann::json manifest = nlohmann::json::parse(slurp(mbfl / "mutants.json"));
  ASSERT_GE(manifest["mutants"].size(), 10u);
  EXPECT_EQ(manifest["generated"].get<std::size_t>(),
            manifest["mutants"].size() + manifest["dropped_uncompilable"].get<std::size_t>() +
                manifest["dropped_unguardable"].get<std::size_t>());
  // The lines examined: the whole top tie, the fault's line among them, every mutant's too.
  std::set<std::pair<std::string, std::uint32_t>> examined;
  for (const auto& l : manifest.at("lines")) examined.emplace(l.at("file"), l.at("line"));
  EXPECT_GE(examined.size(), 20u);
  EXPECT_TRUE(examined.contains({"src/adam.cpp", 34u}));
  for (const auto& m : manifest["mutants"])
    EXPECT_TRUE(examined.contains({m.at("file"), m.at("line")})) << m.dump();

  std::string sbfl_csv, hybrid_csv;
  ASSERT_EQ(run(kDlfl + " rank " + spectrum.string() + " --format csv", &sbfl_csv), 0) << sbfl_csv;
  ASSERT_EQ(run(kDlfl + " rank " + spectrum.string() + " --format csv --mutation hybrid --kill-matrix " +
                    (mbfl / "kill-matrix.dlfl").string(),
                &hybrid_csv),
            0)
      << hybrid_csv;
  const auto sbfl = adam_positions(sbfl_csv), hybrid = adam_positions(hybrid_csv);
  ASSERT_TRUE(sbfl.count(34) && hybrid.count(34)) << sbfl_csv;
  const auto [sbfl_best, sbfl_worst] = sbfl.at(34);
  const auto [hybrid_best, hybrid_worst] = hybrid.at(34);
  ASSERT_GT(sbfl_worst - sbfl_best, 5) << "the fault no longer hides in a large SBFL tie";
  // The hybrid keeps the SBFL order: the fault starts where its SBFL tie starts, and the
  // kill matrix narrows the tie.
  EXPECT_EQ(hybrid_best, sbfl_best);
  EXPECT_LT(hybrid_worst - hybrid_best, sbfl_worst - sbfl_best);

  // A second run reads everything back: no test runs again, same kill matrix.
  const std::string first = slurp(mbfl / "kill-matrix.dlfl");
  ASSERT_EQ(run(kill_matrix, &out), 0) << out;
  EXPECT_EQ(slurp(mbfl / "kill-matrix.dlfl"), first);

  // The same mutants with the tests run one process each from a list of names and a
  // command template (how a project without GoogleTest or CTest runs its tests): the
  // journal removed, every run again, judged by exit status and output (without
  // GoogleTest's times, which would make every failure message differ between runs).
  ASSERT_EQ(run(kDlfl + " convert " + spectrum.string() + " " + (dir / "names.mtx").string(), &out), 0) << out;
  std::string names;
  std::istringstream rows(slurp(dir / "names.tests.csv"));
  std::string row;
  std::getline(rows, row);  // header: name,outcome,failure_weight
  while (std::getline(rows, row)) names += row.substr(0, row.find(',')) + "\n";
  write_text(dir / "names.txt", names);
  fs::remove(mbfl / "kill-journal.jsonl");
  const std::string listed = kDlfl + " kill-matrix -q -j2 --budget 10 --per-line 3 -s " + spectrum.string() + " -p " +
                             (dir / "gcov").string() + " --root " + kTensorlite.string() + " -o " + mbfl.string() +
                             " --build '" + build + "' --tests " + (dir / "names.txt").string() +
                             " --cmd '{out}/build/tensorlite_tests --gtest_print_time=0 --gtest_filter={}'";
  ASSERT_EQ(run(listed, &out), 0) << out;
  ASSERT_EQ(run(kDlfl + " rank " + spectrum.string() + " --format csv --mutation hybrid --kill-matrix " +
                    (mbfl / "kill-matrix.dlfl").string(),
                &hybrid_csv),
            0)
      << hybrid_csv;
  // Kills are judged on other evidence here (the whole output, not GoogleTest's failure
  // message), so the order within the tie may differ; the tie still narrows.
  const auto by_exit = adam_positions(hybrid_csv);
  ASSERT_TRUE(by_exit.count(34)) << hybrid_csv;
  EXPECT_GE(by_exit.at(34).first, sbfl_best);
  EXPECT_LE(by_exit.at(34).second, sbfl_worst);
  EXPECT_LT(by_exit.at(34).second - by_exit.at(34).first, sbfl_worst - sbfl_best);

  // A line no operator applies to costs nothing: with one mutant a line, lines are taken
  // past the first --budget ones until the budget is spent (no build or test needed here:
  // the tests that do not reproduce their outcome are left out).
  const fs::path spread = dir / "spread";
  ASSERT_EQ(run(kDlfl + " kill-matrix -q --budget 60 --per-line 1 -s " + spectrum.string() + " -p " +
                    (dir / "gcov").string() + " --root " + kTensorlite.string() + " -o " + spread.string() +
                    " --build true --tests " + (dir / "names.txt").string() + " --cmd 'true {}'",
                &out),
            0)
      << out;
  const nlohmann::json wide = nlohmann::json::parse(slurp(spread / "mutants.json"));
  EXPECT_GE(wide["generated"].get<std::size_t>(), 60u);
  EXPECT_GT(wide["lines"].size(), 60u);  // some of the first 60 lines took no mutant

  // --plain-build times the same build of a copy without mutants first; both builds run
  // without ccache, and the copy is gone afterwards.
  const fs::path priced = dir / "priced";
  const std::string priced_base = kDlfl + " kill-matrix -q --budget 10 --per-line 3 -s " + spectrum.string() +
                                  " -p " + (dir / "gcov").string() + " --root " + kTensorlite.string() + " -o " +
                                  priced.string() + " --tests " + (dir / "names.txt").string() + " --cmd 'true {}'";
  const std::string plain_ok =
      "test -f {tree}/src/adam.cpp && ! grep -rq DLFL_SCHEMATA_SWITCH {tree} && test \"$CCACHE_DISABLE\" = 1 && "
      "test {out} = " + (priced / "plain").string() + " && touch " + (priced / "plain-built").string();
  const std::string schemata_ok = "grep -rq DLFL_SCHEMATA_SWITCH {tree}/src && test \"$CCACHE_DISABLE\" = 1";
  ASSERT_EQ(run(priced_base + " --build '" + schemata_ok + "' --plain-build '" + plain_ok + "'", &out), 0) << out;
  EXPECT_TRUE(fs::exists(priced / "plain-built"));
  EXPECT_FALSE(fs::exists(priced / "plain"));
  const auto cost = [&] { return nlohmann::json::parse(slurp(priced / "kill-matrix-cost.json")); };
  EXPECT_TRUE(cost()["plain_build_seconds"].is_number()) << cost();
  // Without it ccache is left alone and no plain build time is written.
  ASSERT_EQ(run(priced_base + " --build '! test \"$CCACHE_DISABLE\" = 1'", &out), 0) << out;
  EXPECT_FALSE(cost().contains("plain_build_seconds")) << cost();
  // A plain build that fails is a one-line error naming the option.
  EXPECT_EQ(run(priced_base + " --build true --plain-build false", &out), 2) << out;
  EXPECT_NE(out.find("dlfl: error: --plain-build 'false' failed"), std::string::npos) << out;
}

}  // namespace
}  // namespace dlfl::mutate::testing
