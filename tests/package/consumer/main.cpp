// Uses the installed dlfl library as a user's program would: collect per-test gcov
// coverage of `subject` (one process per test of a test list), write and re-read the
// spectrum, and rank it through localize(), the pipeline `dlfl rank` uses.
// Usage: consumer SPECTRUM_OUT SUBJECT TEST_LIST SOURCE_ROOT
#include <dlfl/collect/collect_request.h>
#include <dlfl/collect/collector.h>
#include <dlfl/error.h>
#include <dlfl/formats/native_format.h>
#include <dlfl/formula.h>
#include <dlfl/localize/localize.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 5) return 2;
  try {
    dlfl::collect::CollectRequest request;
    request.source = dlfl::collect::CommandList{.test_list = argv[3], .command = std::string(argv[2]) + " {}"};
    request.coverage = dlfl::collect::CoverageKind::gcov;
    request.paths.source_root = argv[4];
    request.jobs = 1;
    const dlfl::collect::CollectResult collected = dlfl::collect::collect(request);
    std::cout << "consumer: collected " << collected.stats.tests << " tests, " << collected.stats.failing
              << " failing\n";
    dlfl::io::write_native(collected.spectrum, argv[1]);

    const dlfl::Spectrum spectrum = dlfl::io::read_native(argv[1]);
    dlfl::RankRequest rank;
    rank.formulas.push_back(dlfl::make_formula("ochiai"));
    const dlfl::Ranking ranking = dlfl::localize(spectrum, rank);
    const dlfl::RankedElement& top = ranking.formulas.at(0).ranked.at(0);
    std::cout << "consumer: top element " << ranking.elements().element_name(top.element) << " score " << top.score
              << "\n";
  } catch (const dlfl::Error& e) {
    std::cerr << "consumer: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
