// Every reader of a user-given file refuses what is past its bound as soon as the bound is
// passed, never after loading the file: a 2 GiB sparse file (free on disk, 2 GiB to
// whoever reads it) and a 1 GB line given to each reader through the CLI end in the one
// line "dlfl: error: FILE[:LINE]: ..." and exit 2, the child's peak RSS (wait4) under
// 64 MiB (16 MiB above what the command maps before reading, for the commands of the Clang
// helper); and JSON of 10 MB of brackets is refused before a parser builds its nodes. The
// bounds are listed in docs/reliability.md ("Bounds of each reader").
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "measured_run.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::StartsWith;

constexpr long kRssCapKib = 64 * 1024;  // the cap every reader stays under
constexpr off_t kSparseBytes = off_t{2} << 30;
constexpr off_t kLineBytes = 1'000'000'000;
// A reader that loads the file after all fails here rather than taking the shared
// machine's memory (the binary maps far less than this).
constexpr std::size_t kAddressSpace = std::size_t{4} << 30;

// `prefix`, then NUL bytes up to `size` bytes in all without a line break: a hole, so the
// file costs no disk.
void write_sparse(const fs::path& path, const std::string& prefix, off_t size) {
  write_text(path, prefix);
  ASSERT_EQ(::truncate(path.c_str(), size), 0) << path;
}

// One reader through the CLI: `file` is the input it reads, `prefix` the valid start put
// before the garbage; the errors expected (a prefix of the message after "dlfl: error: ")
// for the 2 GiB file and for the 1 GB line; {SIZE} stands for the file's size.
struct Reader {
  std::string name;
  fs::path file;
  std::string prefix;
  std::vector<std::string> args;
  std::string sparse_error, line_error;
  // The commands that run in the Clang helper (`bench`) map LLVM's libraries first: about
  // 66 MiB before any input is read. There the cap is 16 MiB above the same command's peak
  // on a file of "{}".
  bool clang_helper = false;
};

// 10 MB of objects each the value of the one before: `{"a":{"a":...` (a bare `{{` is
// refused by a parser at its second byte, at no cost).
std::string deep_objects() {
  std::string text;
  while (text.size() < (std::size_t{10} << 20)) text += "{\"a\":";
  return text;
}

std::string with_size(std::string text, off_t size) {
  if (const auto at = text.find("{SIZE}"); at != std::string::npos) text.replace(at, 6, std::to_string(size));
  return text;
}

class ReaderBounds : public ::testing::Test {
 protected:
  fs::path path(const std::string& name) const { return dir_.path() / name; }
  std::string p(const std::string& name) const { return path(name).string(); }

  // `file` holding `text` given to the CLI: one error line starting with `error`, exit 2,
  // peak RSS under the cap.
  void expect_refused(const std::string& what, const std::vector<std::string>& args, const std::string& error,
                      long rss_cap_kib = kRssCapKib) {
    const Measured m = run_measured(args, path("err.txt"), kAddressSpace);
    EXPECT_EQ(m.exit_code, 2) << what << ": " << m.err;
    EXPECT_THAT(m.err, StartsWith("dlfl: error: " + error)) << what;
    EXPECT_EQ(std::count(m.err.begin(), m.err.end(), '\n'), 1) << what << ": " << m.err;
    EXPECT_LT(m.max_rss_kib, rss_cap_kib) << what << ": peak RSS " << m.max_rss_kib << " KiB";
  }

  void expect_bounded(const Reader& r) {
    long cap = kRssCapKib;
    if (r.clang_helper) {
      write_text(r.file, "{}");
      cap = run_measured(r.args, path("err.txt")).max_rss_kib + 16 * 1024;
    }
    write_sparse(r.file, r.prefix, kSparseBytes);
    expect_refused(r.name + ", 2 GiB sparse file", r.args, with_size(r.sparse_error, kSparseBytes), cap);
    write_sparse(r.file, r.prefix, static_cast<off_t>(r.prefix.size()) + kLineBytes);
    expect_refused(r.name + ", 1 GB line", r.args,
                   with_size(r.line_error, static_cast<off_t>(r.prefix.size()) + kLineBytes), cap);
    fs::remove(r.file);
  }

  // `file` of `text` (brackets nested far past the bound) refused by `args` with `error`.
  void expect_deep_json_refused(const std::string& what, const fs::path& file, const std::string& text,
                                const std::vector<std::string>& args, const std::string& error) {
    write_text(file, text);
    expect_refused(what + ", deep JSON", args, error);
    fs::remove(file);
  }

  std::string manifest() {
    write_text(path("ok.jsonl"), kBug + "\n");
    return p("ok.jsonl");
  }

  // A one-element spectrum directory in GZoltar's layout, its file `name` left out.
  void gzoltar_without(const std::string& dir, const std::string& name) {
    const std::vector<std::pair<std::string, std::string>> files = {
        {"spectra.csv", "name\na.cpp:1\n"},
        {"tests.csv", "name,outcome,runtime,stacktrace\nt1,PASS,0,\n"},
        {"matrix.txt", "1 +\n"}};
    for (const auto& [file, text] : files)
      if (file != name) write_text(path(dir + "/" + file), text);
  }

  static inline const std::string kBug = R"({"id":"a+b#1","project":"a+b","files":[]})";
  TempDir dir_{"reader-bounds"};
};

TEST_F(ReaderBounds, ManifestLinesAreStreamedAndBounded) {
  expect_bounded({"bugset stats", path("m.jsonl"), kBug + "\n", {"bugset", "stats", p("m.jsonl")},
                  p("m.jsonl") + ":2: manifest line longer than the 16 MiB limit",
                  p("m.jsonl") + ":2: manifest line longer than the 16 MiB limit"});
  write_text(path("r.csv"), "rank,element,score\n1,a.cpp:1,0.5\n");
  expect_bounded({"eval --bug", path("m.jsonl"), "", {"eval", p("r.csv"), "--bug", p("m.jsonl") + ":a+b#1"},
                  p("m.jsonl") + ":1: manifest line longer than the 16 MiB limit",
                  p("m.jsonl") + ":1: manifest line longer than the 16 MiB limit"});
  expect_deep_json_refused("bugset stats", path("m.jsonl"), kBug + "\n" + std::string(10 << 20, '['),
                           {"bugset", "stats", p("m.jsonl")}, p("m.jsonl") + ":2: JSON nested deeper than 64 levels");
}

TEST_F(ReaderBounds, RecipesSubjectsAndBenchmarkFilesAreRefusedBeforeTheyAreRead) {
  const std::string m = manifest();
  fs::create_directories(path("repos"));
  const std::vector<std::string> reproduce = {"bugset", "reproduce", m, "--project", "a+b", "--repos", p("repos"),
                                              "--recipe", p("r.json"), "-o", p("out")};
  expect_bounded({"recipe", path("r.json"), "", reproduce,
                  p("r.json") + ": recipe of {SIZE} bytes is larger than the 1 MiB limit",
                  p("r.json") + ": recipe of {SIZE} bytes is larger than the 1 MiB limit"});
  expect_deep_json_refused("recipe", path("r.json"), std::string(1 << 20, '['), reproduce,
                           p("r.json") + ":1: JSON nested deeper than 64 levels");
  expect_bounded({"benchmark file", path("b.json"), "", {"bench", p("b.json"), "-o", p("bench-out")},
                  p("b.json") + ": benchmark file of {SIZE} bytes is larger than the 1 MiB limit",
                  p("b.json") + ": benchmark file of {SIZE} bytes is larger than the 1 MiB limit", true});
  expect_bounded({"subject file", path("s.json"), "", {"bench", "-s", p("s.json"), "-o", p("bench-out")},
                  p("s.json") + ": subject file of {SIZE} bytes is larger than the 1 MiB limit",
                  p("s.json") + ": subject file of {SIZE} bytes is larger than the 1 MiB limit", true});
  EXPECT_FALSE(fs::exists(path("out/results.jsonl")));
}

TEST_F(ReaderBounds, BugsCppMetaJsonIsRefusedBeforeItIsRead) {
  const fs::path meta = path("taxonomy/proj/meta.json");
  expect_bounded({"meta.json", meta, "", {"bugset", "import", "bugscpp", p("taxonomy"), "-o", p("m.jsonl")},
                  meta.string() + ": meta.json of {SIZE} bytes is larger than the 16 MiB limit",
                  meta.string() + ": meta.json of {SIZE} bytes is larger than the 16 MiB limit"});
  expect_deep_json_refused("meta.json", meta, deep_objects(),
                           {"bugset", "import", "bugscpp", p("taxonomy"), "-o", p("m.jsonl")},
                           meta.string() + ":1: JSON nested deeper than 64 levels");
  EXPECT_FALSE(fs::exists(path("m.jsonl")));
}

TEST_F(ReaderBounds, PytestAndCoveragePyReportsAreRefusedBeforeTheyAreRead) {
  expect_bounded({"pytest run report", path("pytest-run.json"), "", {"collect", "--pytest-report", p("pytest-run.json"), "-o", p("o.dlfl")},
                  p("pytest-run.json") + ": pytest run report of {SIZE} bytes is larger than the 256 MiB limit",
                  p("pytest-run.json") + ": pytest run report of {SIZE} bytes is larger than the 256 MiB limit"});
  expect_deep_json_refused("pytest run report", path("pytest-run.json"), std::string(10 << 20, '['),
                           {"collect", "--pytest-report", p("pytest-run.json"), "-o", p("o.dlfl")},
                           p("pytest-run.json") + ":1: JSON nested deeper than 64 levels");
  // coverage.py's contexts need the run report's outcomes beside them.
  write_text(path("run.json"), R"({"format": "dlfl-pytest-run", "version": 1, "root": "/src", "repeat": 1,)"
                               R"( "tests": [{"name": "t.py::test_a", "runs": ["passed"], "extrinsic": []}]})");
  const std::vector<std::string> coverage = {"collect", "--pytest-report", p("run.json"), "--coverage-py",
                                             p("coverage.json"), "-o", p("o.dlfl")};
  expect_bounded({"coverage.py JSON", path("coverage.json"), "", coverage,
                  p("coverage.json") + ": coverage.py JSON report of {SIZE} bytes is larger than the 512 MiB limit",
                  p("coverage.json") + ": coverage.py JSON report of {SIZE} bytes is larger than the 512 MiB limit"});
  expect_deep_json_refused("coverage.py JSON", path("coverage.json"), std::string(10 << 20, '['), coverage,
                           p("coverage.json") + ":1: JSON nested deeper than 64 levels");
  EXPECT_FALSE(fs::exists(path("o.dlfl")));
}

TEST_F(ReaderBounds, ProbeMapsAndCallGraphsAreBoundedAsTheyAreRead) {
  write_text(path("tests.txt"), "t1\n");
  expect_bounded({"probe map", path("probes.map"), "dlfl-probe-map\t1\n",
                  {"collect", "--runtime", "--tests", p("tests.txt"), "--cmd", "true {}", "--probe-map", p("probes.map"), "-o", p("o.dlfl")},
                  p("probes.map") + ": probe map of {SIZE} bytes is larger than the 1 GiB limit",
                  p("probes.map") + ":2: line longer than the 1 MiB limit"});
  const std::string spectrum = source_path("examples/spectra/softmax");
  expect_bounded({"call graph", path("cg.tsv"), "dlfl-call-graph\t1\n",
                  {"rank", spectrum, "--propagate", "prfl", "--call-graph", p("cg.tsv")},
                  p("cg.tsv") + ": call graph of {SIZE} bytes is larger than the 1 GiB limit",
                  p("cg.tsv") + ":2: line longer than the 1 MiB limit"});
  EXPECT_FALSE(fs::exists(path("o.dlfl")));
}

TEST_F(ReaderBounds, TablesAndSpectrumListsAreBounded) {
  expect_bounded({"compare --input", path("t.csv"), "", {"compare", "--input", p("t.csv")},
                  p("t.csv") + ": table of {SIZE} bytes is larger than the 256 MiB limit",
                  p("t.csv") + ": table of {SIZE} bytes is larger than the 256 MiB limit"});
  gzoltar_without("g", "tests.csv");
  expect_bounded({"GZoltar tests.csv", path("g/tests.csv"), "", {"rank", p("g")},
                  p("g/tests.csv") + ":1: line longer than the 1 MiB limit",
                  p("g/tests.csv") + ":1: line longer than the 1 MiB limit"});
  gzoltar_without("s", "spectra.csv");
  expect_bounded({"GZoltar spectra.csv", path("s/spectra.csv"), "name\n", {"rank", p("s")},
                  p("s/spectra.csv") + ":2: element name longer than the 1 MiB limit",
                  p("s/spectra.csv") + ":2: element name longer than the 1 MiB limit"});
  write_text(path("m.mtx"), "%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1\n");
  write_text(path("m.elements.csv"), "name\na.cpp:1\n");
  expect_bounded({"Matrix Market tests.csv", path("m.tests.csv"), "name,outcome,failure_weight\n", {"rank", p("m.mtx")},
                  p("m.tests.csv") + ":2: line longer than the 2 MiB limit",
                  p("m.tests.csv") + ":2: line longer than the 2 MiB limit"});
}

TEST_F(ReaderBounds, DeeplyNestedRankingsAreRefusedBeforeTheyAreParsed) {
  write_text(path("truth.txt"), "a.cpp:1\n");
  expect_deep_json_refused("ranking", path("r.json"), deep_objects(),
                           {"eval", p("r.json"), "--truth", p("truth.txt")}, p("r.json") + ":1: JSON nested deeper than 64 levels");
}

}  // namespace
}  // namespace dlfl::testing
