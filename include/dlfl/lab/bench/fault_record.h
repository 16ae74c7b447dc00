// FaultRecord: what `dlfl bench` learned about one seeded fault: kept (with one result per
// formula) or discarded (with the reason). The unit of the results store and of the
// per-bug CSV.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlfl::bench {

// One formula's ranking of the fault's spectrum, evaluated at line level against the
// mutated lines. Order-dependent numbers use the average tie rule (the expectation over
// the orders of a tie, metrics.h); first_rank_best/worst give the other two readings.
struct FormulaResult {
  std::string formula;
  bool found = false;             // the faulty line is a ranked element
  double first_rank = 0;          // expected position of the first faulty line; 0 = not found
  double first_rank_best = 0, first_rank_worst = 0;
  double exam = 1;                // first_rank / elements; 1 when not found
  double rr = 0, ap = 0;          // reciprocal rank, average precision (0 when not found)
  std::vector<double> top;        // probability of a hit within each top_n, as requested
};

// Mutation-based localization of one bug (`bugset reproduce --mbfl`): what its kill matrix
// cost, or why none was measured. Seconds are wall-clock time.
struct MutationCost {
  std::string failure;  // why no kill matrix was measured ("" when one was)
  std::size_t generated = 0, compiled = 0, killed = 0;  // mutants
  std::size_t runs = 0;                                 // test runs with a mutant switched on, and baselines
  double build_seconds = 0;  // the schemata build (one build of the whole project)
  double run_seconds = 0;    // the test runs
  double seconds = 0;        // the whole step: checkout, generation, build, runs
  // What the schemata build is compared against. When plain_build_uncached, the same
  // build of a copy of the buggy version without mutants, run just before the schemata
  // build, both without ccache (KillMatrixStep::plain_build); otherwise the buggy version's
  // build in the same run, with coverage or instrumentation (the closest plain build
  // measured), which ccache may have served in part.
  double plain_build_seconds = 0;
  bool plain_build_uncached = false;
  // Compiled mutants on the ground truth's lines. A seeded fault's own line takes mutants
  // as any line does, which a real fault's line need not (MBFL's bias on seeded faults).
  std::size_t on_faulty_lines = 0;
  // Ground-truth lines among those mutants were sought on (the budget's reach): a faulty
  // line without a mutant was either never tried or tried with no operator applying.
  // nullopt for records of versions that did not count them.
  std::optional<std::size_t> faulty_lines_examined;
  // What the mutants were chosen by: kill-matrix's --budget and --per-line, and the
  // operators it had (mutate/operators.h, all of them): a rerun by a later version with
  // more operators makes other mutants. 0 and empty in records of versions that did not
  // write them.
  std::size_t budget = 0, per_line = 0;
  std::vector<std::string> operators;
  // kill-matrix's --pytest-batch: up to this many pytest cases of a mutant a process (0:
  // one a process, and in records of versions without batches).
  std::size_t pytest_batch = 0;
};

struct FaultRecord {
  std::string subject;   // subject name
  std::string fault;     // mutant id, unique within the subject
  std::string kind;      // the subject's kind: "dl" or "traditional"
  std::string group;     // "dl" for a DL bug type, else "traditional" (mutant.h is_dl)
  std::string bug_type;  // tensor, training, model, api, gpu, numerics, traditional
  std::string op;        // mutation operator
  std::string file;      // mutated file, relative to the subject root
  std::uint32_t line = 0, end_line = 0;
  std::string function;
  // Lines evaluated as faulty: the mutated lines that are elements of the spectrum, or
  // the nearest element line above the edit in the same function (the line of the
  // statement the edit continues), when no mutated line is one.
  std::vector<std::uint32_t> faulty_lines;
  // Real bugs (`dlfl bugset reproduce`): their faults span files, so they are listed as
  // ground-truth items ("file:LINE", "file", eval/ground_truth.h) and faulty_lines stays
  // empty; `file`, `line` and `function` then name the first item.
  std::vector<std::string> faulty;
  std::vector<std::string> failing_tests;  // real bugs: the fail-to-pass tests
  std::vector<std::string> fix_tests;      // real bugs: test files taken from the fix
  std::string clone;                       // real bugs: the clone the commits came from
  std::string recipe;                      // real bugs: digest of the recipe (OUT/recipes/PROJECT-DIGEST.json)
  // Real bugs: each url_map download and what its branches were pinned to (download_pinning.h).
  std::vector<std::string> downloads;
  std::string host;                        // real bugs: the CPU it was reproduced on (host_cpu.h); may be empty
  unsigned attempt = 1;                    // 2, 3, ... for a discarded fault run again

  bool kept = false;
  std::string reason;  // why discarded: "build fails", "no test fails", ...
  std::string detail;  // what else is known about a discard (a compiler error line); may be empty
  std::string tail;    // the last lines of the failing step's output (real bugs); may be empty
  std::size_t tests = 0, failing = 0, elements = 0;
  double seconds = 0;  // wall time of this fault (apply, build, run, rank)
  std::vector<FormulaResult> results;  // when kept, one per formula in the run's order
  // Real bugs reproduced with --mbfl: the kill matrix's cost (its rankings are in results,
  // named FORMULA+hybrid, FORMULA+metallaxis and muse); nullopt: not asked for.
  std::optional<MutationCost> mbfl;

  // "subject#fault": the bug id of the per-bug table and the key of the store.
  std::string key() const { return subject + "#" + fault; }
  std::size_t faulty_count() const noexcept { return faulty.empty() ? faulty_lines.size() : faulty.size(); }
};

}  // namespace dlfl::bench
