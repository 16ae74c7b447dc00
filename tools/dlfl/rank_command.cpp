// `dlfl rank INPUT`: scores and ranks the elements of a spectrum with one or more formulas.
#include <iostream>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/aggregate.h"
#include "dlfl/formula.h"
#include "dlfl/io/ranking_writer.h"
#include "dlfl/io/spectrum_formats.h"
#include "dlfl/ranking.h"
#include "dlfl/scoring.h"

namespace dlfl::cli {
namespace {

struct RankOptions {
  std::string input;
  std::string input_format;
  std::vector<std::string> formulas;
  Granularity granularity = Granularity::line;
  std::string aggregation = "spectrum";
  TieRule ties = TieRule::average;
  std::size_t top = 0;
  std::string format = "table";
  std::string output;
};

void run_rank(const RankOptions& o) {
  // Parse every formula before reading a possibly large spectrum: typos fail fast.
  std::vector<Formula> formulas;
  for (const auto& f : o.formulas.empty() ? std::vector<std::string>{"ochiai"} : o.formulas)
    formulas.push_back(make_formula(f));

  const Spectrum lines = o.input_format.empty()
                             ? io::read_spectrum(o.input)
                             : io::read_spectrum(o.input, io::parse_spectrum_format(o.input_format));
  if (lines.failed_weight() == 0.0)
    warn(o.input + ": no failing test, so no element is more suspicious than another");
  if (lines.passed_weight() == 0.0) warn(o.input + ": no passing test; rankings only reflect failing coverage");

  // `spectrum` aggregation lifts coverage before scoring (a function is covered when any
  // of its lines is); `max` scores lines and keeps each group's best line score.
  const bool by_max = o.aggregation == "max" && o.granularity != Granularity::line;
  const Aggregated groups = aggregate(lines, o.granularity);
  const Spectrum& scored = by_max ? lines : groups.spectrum;
  Scores scores = score_spectrum(scored, formulas);
  const auto tie_keys = groups.spectrum.tie_break_keys();

  std::vector<std::vector<RankedElement>> ranked;
  for (std::size_t f = 0; f < formulas.size(); ++f) {
    if (scores.undefined[f])
      warn("formula '" + formulas[f].name() + "' is undefined (NaN) for " + std::to_string(scores.undefined[f]) +
           " elements; they rank last");
    Eigen::ArrayXd& s = scores.per_formula[f];
    if (by_max) s = max_by_group(s, groups.group_of, groups.spectrum.element_count());
    ranked.push_back(rank(s, tie_keys, o.top));
  }
  std::vector<io::FormulaRanking> rankings;
  for (std::size_t i = 0; i < formulas.size(); ++i) {
    std::span<const RankedElement> shown = ranked[i];
    if (o.top > 0 && shown.size() > o.top) shown = shown.first(o.top);
    rankings.push_back({formulas[i].name(), shown});
  }
  const auto writer = io::make_ranking_writer(o.format);
  write_output(o.output, [&](std::ostream& out) { writer->write(out, groups.spectrum, rankings, {o.ties}); });
}

}  // namespace

void add_rank_command(CLI::App& app) {
  auto o = std::make_shared<RankOptions>();
  auto* cmd = app.add_subcommand(
      "rank",
      "Score every element of a spectrum and rank them, most suspicious first.\n"
      "Example: dlfl rank sfl/txt --formula ochiai --formula dstar2 --granularity function --top 10");
  cmd->add_option("INPUT", o->input, "Spectrum: GZoltar directory, legacy matrix/spectra, or native .dlfl")->required();
  cmd->add_option("--input-format", o->input_format, "Input format (default: detected)")
      ->check(CLI::IsMember({"gzoltar", "legacy", "native", "matrix-market"}));
  cmd->add_option("-f,--formula", o->formulas,
                  "Formula name (see `dlfl formulas`), dstar:N, or an expression over ef, ep, nf, np; "
                  "repeat for several (default: ochiai)");
  const std::map<std::string, Granularity> granularities{
      {"line", Granularity::line}, {"function", Granularity::function}, {"file", Granularity::file}};
  cmd->add_option("-g,--granularity", o->granularity, "Rank lines, functions or files (default: line)")
      ->transform(CLI::CheckedTransformer(granularities, CLI::ignore_case));
  cmd->add_option("--aggregate", o->aggregation,
                  "For function/file: 'spectrum' aggregates coverage then scores (default), "
                  "'max' scores lines and takes each group's maximum")
      ->check(CLI::IsMember({"spectrum", "max"}));
  const std::map<std::string, TieRule> ties{
      {"best", TieRule::best}, {"worst", TieRule::worst}, {"average", TieRule::average}};
  cmd->add_option("--ties", o->ties, "Position reported for tied elements: best, worst, average (default)")
      ->transform(CLI::CheckedTransformer(ties, CLI::ignore_case));
  cmd->add_option("-n,--top", o->top, "Only the N most suspicious elements (0 = all)");
  cmd->add_option("--format", o->format,
                  "Output format: table (default), csv, json, gzoltar (<formula>.ranking.csv, one formula)")
      ->check(CLI::IsMember({"table", "csv", "json", "gzoltar"}));
  cmd->add_option("-o,--output", o->output, "Output file, written atomically (default: stdout)");
  cmd->callback([o] { run_rank(*o); });
}

}  // namespace dlfl::cli
