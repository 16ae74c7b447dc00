// `dlfl merge IN... -o OUT`: joins spectra of the same code collected in parts (test
// shards, job-array tasks, machines) into one.
#include <iostream>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/formats/spectrum_merge.h"

namespace dlfl::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string output, to;
  bool quiet = false;
  io::MergeOptions merge;
};

void run_merge(const MergeOptions& o) {
  const std::vector<std::filesystem::path> inputs(o.inputs.begin(), o.inputs.end());
  const io::SpectrumFormat format = o.to.empty() ? io::infer_output_format(o.output) : io::parse_spectrum_format(o.to);
  const io::MergeStats s = io::merge_spectra(inputs, o.output, format, o.merge);
  if (s.flaky_shared)
    warn(std::to_string(s.flaky_shared) + " of the " + std::to_string(s.shared_tests) +
         " tests met in several inputs failed in some only: recorded as flaky with their failing share");
  if (s.failing == 0) warn(o.output + ": no failing test in any input, so no element is more suspicious than another");
  if (!o.quiet)
    std::cout << "merged " << s.inputs << " spectra: " << s.tests << " tests (" << s.failing << " failing"
              << (s.shared_tests ? ", " + std::to_string(s.shared_tests) + " met in several inputs" : std::string())
              << "), " << s.elements << " elements"
              << (s.partial_elements ? " (" + std::to_string(s.partial_elements) + " in some inputs only)" : std::string())
              << ", " << s.covered_pairs << " covered pairs -> " << o.output << '\n';
}

}  // namespace

void add_merge_command(CLI::App& app) {
  auto o = std::make_shared<MergeOptions>();
  auto* cmd = app.add_subcommand(
      "merge",
      "Join spectra of the same code collected in parts (dlfl collect --shard I/N, job arrays, machines).\n"
      "Tests are unioned; a test met in several inputs is one test whose failure weight is its failing share.\n"
      "Elements are unioned; one present in some inputs only counts as not covered by the others' tests.\n"
      "Inputs of different source roots, probe maps or element identities are refused, and so are, unless\n"
      "--allow-disjoint, an input sharing no element and no test with the ones before it and inputs with a\n"
      "source root beside ones without.\n"
      "Example: dlfl merge shards/*.dlfl -o sfl.dlfl");
  cmd->add_option("IN", o->inputs, "Input spectra (any format dlfl reads)")->required();
  cmd->add_option("-o,--output", o->output,
                  "Output, written atomically (format from --to, else from the path: .dlfl = native, streamed)")
      ->required();
  cmd->add_option("--to", o->to, "Output format")->check(CLI::IsMember({"gzoltar", "legacy", "native", "matrix-market"}));
  cmd->add_flag("--allow-disjoint", o->merge.allow_disjoint,
                "Merge inputs that share no element and no test, or that have a source root beside ones without");
  cmd->add_flag("-q,--quiet", o->quiet, "No summary line");
  cmd->callback([o] { run_merge(*o); });
}

}  // namespace dlfl::cli
