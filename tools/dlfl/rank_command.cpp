// `dlfl rank INPUT`: scores and ranks the elements of a spectrum with one or more formulas.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <map>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/aggregate.h"
#include "dlfl/counts.h"
#include "dlfl/error.h"
#include "dlfl/formula.h"
#include "dlfl/graph/call_graph_cache.h"
#include "dlfl/graph/call_graph_format.h"
#include "dlfl/graph/propagation.h"
#include "dlfl/io/ranking_writer.h"
#include "dlfl/io/spectrum_formats.h"
#include "dlfl/multi_fault.h"
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
  bool top_given = false;
  double min_score = std::numeric_limits<double>::quiet_NaN();  // NaN = no threshold
  std::string format = "table";
  std::string source_root;
  std::string output;
  std::string propagate;   // prfl | neighbors
  std::string call_graph;  // the call graph file --propagate reads
  std::string multi_fault; // flitsr
};

// The scores of one formula under the technique asked for: plain, propagated over the
// call graph (functions first, then their elements) or FLITSR's multi-fault order.
struct Technique {
  std::optional<graph::Propagation> propagation;
  std::optional<graph::FunctionGraph> functions;
  std::optional<MultiFault> multi_fault;
};

Technique load_technique(const RankOptions& o, const Spectrum& elements) {
  Technique t;
  if (!o.multi_fault.empty()) t.multi_fault = parse_multi_fault(o.multi_fault);
  if (o.propagate.empty()) {
    if (!o.call_graph.empty()) warn("--call-graph is only read with --propagate");
    return t;
  }
  t.propagation = graph::parse_propagation(o.propagate);
  if (o.call_graph.empty())
    throw Error("--propagate " + o.propagate + " needs --call-graph FILE (`dlfl instrument` writes OUT/" +
                graph::kCallGraphFileName + "; `dlfl callgraph -p BUILD_DIR -o FILE` makes one)");
  // Through FILE.cache: parsing a large text graph on every run costs more than ranking.
  const graph::CompactCallGraph calls = graph::read_call_graph_cached(o.call_graph);
  if (calls.empty()) warn(o.call_graph + ": the call graph is empty; propagation only sees the spectrum");
  try {
    t.functions = graph::join_functions(elements, calls);
  } catch (const Error& e) {
    throw Error(o.call_graph, 0, e.message());
  }
  return t;
}

// GitHub shows at most 10 warning annotations per workflow step.
constexpr std::size_t kGithubDefaultTop = 10;

// The lowest and highest finite score: what sarif normalizes its 0..100 rank against.
std::pair<double, double> finite_range(const Eigen::ArrayXd& scores) {
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  for (const double s : scores) {
    if (std::isnan(s) || std::fabs(s) >= kInfiniteScore) continue;
    lowest = std::min(lowest, s);
    highest = std::max(highest, s);
  }
  return lowest > highest ? std::pair{0.0, 0.0} : std::pair{lowest, highest};
}

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
  if (by_max && (!o.propagate.empty() || !o.multi_fault.empty()))
    throw Error("--aggregate max cannot be combined with --propagate or --multi-fault");
  if (!o.propagate.empty() && !o.multi_fault.empty())
    throw Error("--propagate and --multi-fault are separate techniques; choose one");
  // Propagation ranks functions itself: it starts from the lines (or blocks) and reports
  // its function scores at function granularity.
  const bool propagated_functions = !o.propagate.empty() && o.granularity == Granularity::function;
  const Aggregated groups = aggregate(lines, propagated_functions ? Granularity::line : o.granularity);
  const Technique technique = load_technique(o, groups.spectrum);
  const Spectrum& shown = propagated_functions ? technique.functions->functions.spectrum : groups.spectrum;
  const Spectrum& scored = by_max ? lines : groups.spectrum;
  // Propagation scores the elements itself: counting them here too would read the
  // coverage once more for nothing. Its counts and PageRank serve every formula.
  Scores scores;
  if (technique.propagation) {
    auto propagated = graph::propagate(groups.spectrum, *technique.functions, formulas, *technique.propagation);
    for (auto& p : propagated) {
      scores.per_formula.push_back(propagated_functions ? std::move(p.functions) : std::move(p.elements));
      scores.undefined.push_back(p.undefined);
    }
  } else {
    scores = score_spectrum(scored, formulas);
  }
  // Ties in (file, line) order: as runs of element ids when the elements come file by
  // file (no per-element keys); FLITSR compares elements by the keys themselves.
  const TieOrder tie_order = shown.tie_order();
  const auto tie_keys = technique.multi_fault ? shown.tie_break_keys() : std::vector<std::uint64_t>{};

  const std::size_t top = o.top_given || o.format != "github" ? o.top : kGithubDefaultTop;
  std::vector<std::vector<RankedElement>> ranked;
  std::vector<std::pair<double, double>> ranges;
  for (std::size_t f = 0; f < formulas.size(); ++f) {
    Eigen::ArrayXd& s = scores.per_formula[f];
    if (scores.undefined[f])
      warn("formula '" + formulas[f].name() + "' is undefined (NaN) for " + std::to_string(scores.undefined[f]) +
           " elements; they rank last");
    if (by_max) s = max_by_group(s, groups.group_of, groups.spectrum.element_count());
    if (technique.multi_fault) {  // never with propagation (checked above)
      s = flitsr(groups.spectrum, formulas[f], tie_keys).scores;
    }
    ranked.push_back(rank(s, tie_order, top));
    ranges.push_back(finite_range(s));
  }
  std::vector<io::FormulaRanking> rankings;
  for (std::size_t i = 0; i < formulas.size(); ++i) {
    std::span<const RankedElement> kept = ranked[i];
    if (top > 0 && kept.size() > top) kept = kept.first(top);
    // Ranked by descending score, so the elements at or above a threshold are a prefix.
    if (!std::isnan(o.min_score)) {
      const auto below =
          std::find_if(kept.begin(), kept.end(), [&](const RankedElement& r) { return r.score < o.min_score; });
      kept = kept.first(static_cast<std::size_t>(below - kept.begin()));
    }
    rankings.push_back({formulas[i].name(), kept, ranges[i].first, ranges[i].second});
  }
  const auto writer = io::make_ranking_writer(o.format);
  io::RankingWriteOptions options;
  options.tie_rule = o.ties;
  options.last_line_column = o.granularity == Granularity::block;
  Counts counts;
  // csv and json carry ef/ep/nf/np too, so `dlfl eval --exam-base executed` can tell
  // the elements no test ran from a ranking file.
  if (writer->uses_counts() || o.format == "csv" || o.format == "json") {
    counts = compute_counts(shown);
    options.counts = &counts;
  }
  options.source_root = o.source_root;
  const std::map<Granularity, std::string_view> granularity_names{{Granularity::line, "line"},
                                                                  {Granularity::block, "block"},
                                                                  {Granularity::function, "function"},
                                                                  {Granularity::file, "file"}};
  options.granularity = granularity_names.at(o.granularity);
  write_output(o.output, [&](std::ostream& out) { writer->write(out, shown, rankings, options); });
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
      ->check(CLI::IsMember({"gzoltar", "legacy", "native", "matrix-market", "lcov"}));
  cmd->add_option("-f,--formula", o->formulas,
                  "Formula name (see `dlfl formulas`), dstar:N, or an expression over ef, ep, nf, np; "
                  "repeat for several (default: ochiai)");
  const std::map<std::string, Granularity> granularities{
      {"line", Granularity::line}, {"block", Granularity::block}, {"function", Granularity::function},
      {"file", Granularity::file}};
  cmd->add_option("-g,--granularity", o->granularity,
                  "Rank lines, blocks (a function's lines with identical coverage, one element with its "
                  "line span), functions or files (default: line)")
      ->transform(CLI::CheckedTransformer(granularities, CLI::ignore_case));
  cmd->add_option("--aggregate", o->aggregation,
                  "For function/file: 'spectrum' aggregates coverage then scores (default), "
                  "'max' scores lines and takes each group's maximum")
      ->check(CLI::IsMember({"spectrum", "max"}));
  const std::map<std::string, TieRule> ties{
      {"best", TieRule::best}, {"worst", TieRule::worst}, {"average", TieRule::average}};
  cmd->add_option("--ties", o->ties, "Position reported for tied elements: best, worst, average (default)")
      ->transform(CLI::CheckedTransformer(ties, CLI::ignore_case));
  cmd->add_option("-n,--top", o->top, "Only the N most suspicious elements (0 = all; github: default 10)")
      ->each([o](const std::string&) { o->top_given = true; });
  cmd->add_option("--min-score", o->min_score, "Only elements scoring at least this much");
  cmd->add_option("--format", o->format,
                  "Output format: table (default), csv, json, gzoltar (<formula>.ranking.csv, one formula), "
                  "sarif (SARIF 2.1.0 for code scanning), github (workflow annotations), html (one self-contained "
                  "page with a source heatmap)")
      ->check(CLI::IsMember({"table", "csv", "json", "gzoltar", "sarif", "github", "html"}));
  cmd->add_option("--source-root", o->source_root,
                  "sarif/github/html: file names are relative to this directory (sarif's SRCROOT; html reads the "
                  "sources from it)");
  cmd->add_option("--propagate", o->propagate,
                  "Use the call graph: prfl (PageRank-weighted spectrum, Zhang et al. ISSTA 2017) or neighbors "
                  "(callers/callees lift a function); functions rank first, then their lines")
      ->check(CLI::IsMember({"prfl", "neighbors"}));
  cmd->add_option("--call-graph", o->call_graph, "Call graph file for --propagate (dlfl instrument's dlfl-callgraph.tsv); its binary form is "
                  "cached beside it as FILE.cache, rebuilt when FILE changes");
  cmd->add_option("--multi-fault", o->multi_fault,
                  "Multi-fault ranking: flitsr (Callaghan and Fischer, ISSTA 2023): each fault's best element rises")
      ->check(CLI::IsMember({"flitsr"}));
  cmd->add_option("-o,--output", o->output, "Output file, written atomically (default: stdout)");
  cmd->callback([o] { run_rank(*o); });
}

}  // namespace dlfl::cli
