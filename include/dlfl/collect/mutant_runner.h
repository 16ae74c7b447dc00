// run_mutants(): the test runs of mutation-based localization on a mutant schemata build.
// For each mutant, the tests that can see it — the failing tests, and the passing tests
// that run its line in the original spectrum — run with the mutant switched on; a test
// whose outcome changes (another verdict, another failure message, a crash, a time-out)
// kills it. The result is the kill matrix (mutation_scores.h), a Spectrum.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/collect/progress.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/spectrum.h"

namespace dlfl::collect {

struct MutantToRun {
  std::uint32_t number = 0;  // the switch value (> 0)
  std::string file;          // as the spectrum spells it
  std::uint32_t line = 0;
  std::string op;  // operator name, shown in the kill matrix's element names
  std::string function;
};

struct MutantRunRequest {
  // The original program's spectrum (not owned; must outlive the call): its tests'
  // outcomes and which tests ran each line.
  const Spectrum* spectrum = nullptr;
  std::vector<MutantToRun> mutants;
  // How to run each test on the schemata build, named as in the spectrum. A spectrum test
  // a mutant needs that has no command here is an error.
  std::vector<TestCommand> tests;
  // pytest batches (pytest_batch.h): with pytest_batch > 0, the command template the tests
  // were made from (make_template_commands) runs up to pytest_batch of a mutant's tests in
  // one process, their outcomes read from pytest's JUnit report, and the original program
  // is run the same way twice for the baselines. A batch that crashes, times out or leaves
  // a case unreported, and every test whose batched baselines are flaky or do not
  // reproduce its spectrum outcome, run one process per test as without batches. Cases of
  // a batch share one interpreter, so a case may see what an earlier one left behind.
  std::string pytest_template;
  std::size_t pytest_batch = 0;
  std::string switch_variable = "DLFL_MUTANT";
  // The results journal (kill_journal: JSON lines, appended as runs end) and the digest of
  // the schemata it belongs to: a rerun after a kill reads it back and runs only the rest.
  std::filesystem::path journal;
  std::uint64_t schemata_digest = 0;
  // Scratch space for GoogleTest's reports (created, emptied when done).
  std::filesystem::path scratch;
  unsigned jobs = 1;  // tests run at once (0 = one per hardware thread)
  // A mutant run may take timeout_factor × the test's slower baseline run, at least
  // min_timeout; baseline runs (the original program, twice) get baseline_timeout.
  double timeout_factor = 4.0;
  std::chrono::milliseconds min_timeout{2000};
  std::chrono::milliseconds baseline_timeout{300000};
  std::chrono::milliseconds kill_grace{2000};
  ProgressReporter* progress = nullptr;      // not owned; may be null
  const std::atomic<bool>* interrupt = nullptr;  // set asynchronously to stop (SIGINT)
  std::function<void(std::string_view)> warn;    // one line per left-out test
};

struct MutantRunResult {
  // Elements: the mutants in request order (file, line, function of the mutated line;
  // name "FILE:LINE OPERATOR #N"); tests: the spectrum's tests with their original
  // outcome, without those left out; coverage: killed (mutant, test) pairs.
  Spectrum kill_matrix;
  std::size_t runs = 0;         // test runs made by this call (baseline included)
  std::size_t batches = 0;      // pytest processes of batches made by this call (their cases are in runs)
  std::size_t reused = 0;       // runs read back from the journal
  std::size_t killed = 0;       // mutants some test kills
  std::vector<std::string> left_out;  // tests left out (flaky on the original, or not reproduced)
  bool interrupted = false;     // stopped early: the kill matrix is empty, the journal keeps what ran
};

// Throws dlfl::Error for a request without a spectrum, a mutant of number 0, pytest batches
// without a template whose {} can take several names (batch_command_text), a needed
// test without a command, or a journal that cannot be read or written (kill_journal).
MutantRunResult run_mutants(const MutantRunRequest& request);

}  // namespace dlfl::collect
