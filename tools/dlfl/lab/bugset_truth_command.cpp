// `dlfl bugset truth MANIFEST --bug ID --spectrum FILE`: a reproduced bug's ground truth
// from its fix and its kept spectrum (fix_truth.h), so that a rule can be applied to a
// kept spectrum without building the bug again (scripts/realbugs.sh --no-reproduce does).
#include <iostream>
#include <memory>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/error.h"
#include "dlfl/formats/spectrum_formats.h"
#include "dlfl/lab/bench/fix_truth.h"
#include "dlfl/lab/eval/bugset_manifest.h"
#include "dlfl/lab/eval/ground_truth.h"

namespace dlfl::cli {
namespace {

struct TruthOptions {
  std::string manifest;
  std::string bug;
  std::string spectrum;
  std::string rule = "adjacent-lines";
  std::string output;
};

void run_truth(const TruthOptions& o) {
  const auto rule = bench::parse_truth_rule(o.rule);
  if (!rule) throw Error("--rule: adjacent-lines or whole-file, not '" + o.rule + "'");
  const std::vector<eval::BugReport> bugs = eval::read_manifest(o.manifest);
  const eval::BugReport* bug = eval::find_bug(bugs, o.bug);
  if (!bug) throw Error(o.manifest, 0, "no bug '" + o.bug + "'");
  const Spectrum spectrum = io::read_spectrum(o.spectrum);
  const auto truth = bench::fix_truth(*bug, spectrum, *rule);
  write_output(o.output, [&](std::ostream& out) { eval::write_ground_truth(out, truth); });
  std::cerr << "dlfl: " << o.bug << ": " << truth.size() << " faulty elements (" << o.rule << ")\n";
}

}  // namespace

void add_bugset_truth_command(CLI::App& bugset) {
  auto o = std::make_shared<TruthOptions>();
  auto* cmd = bugset.add_subcommand(
      "truth",
      "The faulty elements of a reproduced bug, from its fix (the manifest's changed lines) and the\n"
      "spectrum of its buggy version, in `dlfl eval --truth` lines. adjacent-lines (the rule `dlfl versions`\n"
      "uses; Pearson et al., ICSE 2017): the buggy version's changed lines that are executable, and for a\n"
      "change with none (a pure insertion) the nearest executable lines above and below it. whole-file:\n"
      "every deleted line, and a file the fix only adds to as a whole file (a sensitivity variant).\n"
      "Example: dlfl bugset truth bugsets/dl.jsonl --bug 'dmlc+dgl#1409' --spectrum spectra/dmlc+dgl#1409.dlfl");
  cmd->add_option("MANIFEST", o->manifest, "Manifest or curated list holding the bug (its files' line lists)")
      ->required();
  cmd->add_option("--bug", o->bug, "The bug's id")->required();
  cmd->add_option("--spectrum", o->spectrum, "The buggy version's spectrum (as `bugset reproduce` keeps it)")
      ->required();
  cmd->add_option("--rule", o->rule, "adjacent-lines (default) or whole-file");
  cmd->add_option("-o,--output", o->output, "Output file, written atomically (default: stdout)");
  cmd->callback([o] { run_truth(*o); });
}

}  // namespace dlfl::cli
