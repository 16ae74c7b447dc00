// validation_cost: what the always-on structural validation of native files (issue #14)
// costs next to the ranking dlfl rank then does, on one spectrum, measured in one run.
//
//   validate   the structural pass of read_native over the mapped arrays (coverage
//              offsets and ids or bit words, string pool, element records), pages warm
//   read       read_native without the checksum: map + validate + test list
//   checksum   read_native with the checksum (XXH3 over the file), for comparison
//   rank       counts + Ochiai + tie keys + full ranking, 2 threads (rank_ratio's "dlfl")
// Runs alternate (validate, read, checksum, rank, ...) and each keeps its best.
// Usage: validation_cost SPECTRUM.dlfl [THREADS] [REPEATS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "dlfl/formula.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/ranking.h"
#include "dlfl/scoring.h"

namespace {

template <class F>
void best_of(double& best, F&& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: validation_cost SPECTRUM.dlfl [THREADS] [REPEATS]\n";
    return 2;
  }
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : 2;
  const int repeats = argc > 3 ? std::stoi(argv[3]) : 5;
  const dlfl::Spectrum s = dlfl::io::read_native(argv[1], {.verify_checksum = false});
  const auto& c = s.coverage();
  const std::vector<dlfl::Formula> ochiai{dlfl::make_formula("ochiai")};
  std::shared_ptr<const void> none;
  double validate = 1e300, read = 1e300, checksum = 1e300, rank = 1e300;
  for (int i = 0; i < repeats; ++i) {
    // The same constructors read_native runs, over the same mapped arrays.
    best_of(validate, [&] {
      dlfl::StringPool pool(s.strings().blob(), s.strings().offsets(), none);
      dlfl::Coverage coverage =
          c.is_dense() ? dlfl::Coverage::dense(c.tests(), c.elements(), dlfl::Column<std::uint64_t>(c.all_bits(), none))
                       : dlfl::Coverage(c.tests(), dlfl::Column<std::uint64_t>(c.offsets(), none),
                                        dlfl::Column<std::uint32_t>(c.test_ids(), none));
      const dlfl::Spectrum again(std::move(pool), dlfl::Column<dlfl::ElementRecord>(s.elements(), none),
                                 std::vector<dlfl::TestCase>(s.tests().begin(), s.tests().end()), std::move(coverage));
    });
    best_of(read, [&] { (void)dlfl::io::read_native(argv[1], {.verify_checksum = false}); });
    best_of(checksum, [&] { (void)dlfl::io::read_native(argv[1]); });
    best_of(rank, [&] {
      const dlfl::Scores scores = dlfl::score_spectrum(s, ochiai, {.threads = threads});
      (void)dlfl::rank(scores.per_formula[0], s.tie_break_keys(), 0, threads);
    });
  }
  std::printf("elements %zu tests %zu nnz %zu %s threads %u repeats %d\n", s.element_count(), s.test_count(), c.nnz(),
              c.is_dense() ? "dense" : "sparse", threads, repeats);
  std::printf("validate_seconds %.6f\nread_seconds %.6f\nchecksum_read_seconds %.6f\nrank_seconds %.6f\n", validate,
              read, checksum, rank);
  std::printf("validation vs read + rank: %.1f%%\n", 100.0 * validate / (read + rank));
  std::printf("validation vs rank alone: %.1f%%\n", 100.0 * validate / rank);
  return 0;
}
