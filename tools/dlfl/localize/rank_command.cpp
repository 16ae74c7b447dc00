// `dlfl rank INPUT`: scores and ranks the elements of a spectrum with one or more formulas.
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
#include "dlfl/report/ranking_writer.h"
#include "dlfl/formats/spectrum_formats.h"
#include "dlfl/localize/localize.h"
#include "dlfl/multi_fault.h"
#include "dlfl/mutation_scores.h"
#include "dlfl/ranking.h"

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
  std::string mutation;    // metallaxis | muse | hybrid
  std::string kill_matrix; // the kill matrix --mutation reads (`dlfl kill-matrix`)
  std::size_t max_bytes = 0;
  bool max_bytes_given = false;
  std::uint32_t context_lines = 3;
};

// GitHub shows at most 10 warning annotations per workflow step.
constexpr std::size_t kGithubDefaultTop = 10;
// The LLM contexts: a top the localizers' papers work with (AutoFL and LLM4FL look at the
// top 10-20), in 64 KiB (about 16k tokens: fits every current model's context with room
// for its answer).
constexpr std::size_t kLlmDefaultTop = 20;
constexpr std::size_t kLlmDefaultMaxBytes = 65536;

bool llm_format(const std::string& format) { return format.starts_with("llm-"); }

// --top when given, else the format's default.
std::size_t default_top(const RankOptions& o) {
  if (o.top_given) return o.top;
  if (o.format == "github") return kGithubDefaultTop;
  return llm_format(o.format) ? kLlmDefaultTop : o.top;
}

// The options as the library's request; formulas are parsed here, before a possibly
// large spectrum is read, so that typos fail fast.
RankRequest rank_request(const RankOptions& o) {
  RankRequest r;
  for (const auto& f : o.formulas.empty() ? std::vector<std::string>{"ochiai"} : o.formulas)
    r.formulas.push_back(make_formula(f));
  r.granularity = o.granularity;
  r.aggregation = *parse_aggregation(o.aggregation);  // checked by the option
  r.ties = o.ties;
  r.top = default_top(o);
  r.min_score = o.min_score;
  if (!o.propagate.empty()) r.propagation = graph::parse_propagation(o.propagate);
  if (!o.multi_fault.empty()) r.multi_fault = parse_multi_fault(o.multi_fault);
  if (!o.mutation.empty()) r.mutation = parse_mutation_technique(o.mutation);
  return r;
}

// The usage errors of a request, in the options' words (localize() checks them too).
void check_techniques(const RankOptions& o, const RankRequest& r) {
  if (r.aggregation == Aggregation::max && r.granularity != Granularity::line && (r.propagation || r.multi_fault))
    throw Error("--aggregate max cannot be combined with --propagate or --multi-fault");
  if (r.propagation && r.multi_fault) throw Error("--propagate and --multi-fault are separate techniques; choose one");
  if (r.mutation) {
    if (o.kill_matrix.empty())
      throw Error("--mutation " + o.mutation + " needs --kill-matrix FILE (`dlfl kill-matrix` writes OUT/kill-matrix.dlfl)");
    if (r.granularity != Granularity::line) throw Error("--mutation ranks lines only (--granularity line)");
    if (r.propagation || r.multi_fault) throw Error("--mutation cannot be combined with --propagate or --multi-fault");
  } else if (!o.kill_matrix.empty()) {
    warn("--kill-matrix is only read with --mutation");
  }
  if (!r.propagation) {
    if (!o.call_graph.empty()) warn("--call-graph is only read with --propagate");
    return;
  }
  if (o.call_graph.empty())
    throw Error("--propagate " + o.propagate + " needs --call-graph FILE (`dlfl instrument` writes OUT/" +
                graph::kCallGraphFileName + "; `dlfl callgraph -p BUILD_DIR -o FILE` makes one)");
}

void run_rank(const RankOptions& o) {
  if (!llm_format(o.format) && o.max_bytes_given) warn("--max-bytes only bounds the llm-json and llm-markdown formats");
  RankRequest request = rank_request(o);
  const Spectrum lines = o.input_format.empty()
                             ? io::read_spectrum(o.input)
                             : io::read_spectrum(o.input, io::parse_spectrum_format(o.input_format));
  if (lines.failed_weight() == 0.0)
    warn(o.input + ": no failing test, so no element is more suspicious than another");
  if (lines.passed_weight() == 0.0) warn(o.input + ": no passing test; rankings only reflect failing coverage");
  check_techniques(o, request);
  graph::CompactCallGraph calls;
  if (request.propagation) {
    // Through FILE.cache: parsing a large text graph on every run costs more than ranking.
    calls = graph::read_call_graph_cached(o.call_graph);
    if (calls.empty()) warn(o.call_graph + ": the call graph is empty; propagation only sees the spectrum");
    request.call_graph = &calls;
    request.call_graph_name = o.call_graph;
  }
  Spectrum kills;
  if (request.mutation) {
    kills = io::read_spectrum(o.kill_matrix);
    if (kills.element_count() == 0) warn(o.kill_matrix + ": the kill matrix has no mutant; every line scores alike");
    request.kill_matrix = &kills;
  }
  const Ranking ranking = localize(lines, request);

  std::vector<io::FormulaRanking> rankings;
  for (const RankedFormula& f : ranking.formulas) {
    if (f.undefined)
      warn("formula '" + f.formula + "' is undefined (NaN) for " + std::to_string(f.undefined) +
           " elements; they rank last");
    rankings.push_back({f.formula, f.ranked, f.lowest_score, f.highest_score});
  }
  const Spectrum& shown = ranking.elements();
  const auto writer = io::make_ranking_writer(o.format);
  io::RankingWriteOptions options;
  options.tie_rule = ranking.ties();
  options.last_line_column = ranking.granularity() == Granularity::block;
  Counts counts;
  // csv and json carry ef/ep/nf/np too, so `dlfl eval --exam-base executed` can tell
  // the elements no test ran from a ranking file.
  if (writer->uses_counts() || o.format == "csv" || o.format == "json") {
    counts = compute_counts(shown);
    options.counts = &counts;
  }
  options.source_root = o.source_root;
  options.granularity = granularity_name(ranking.granularity());
  options.max_bytes = o.max_bytes_given ? o.max_bytes : kLlmDefaultMaxBytes;
  options.context_lines = o.context_lines;
  write_output(o.output, [&](std::ostream& out) { writer->write(out, shown, rankings, options); });
}

}  // namespace

void add_rank_command(CLI::App& app) {
  auto o = std::make_shared<RankOptions>();
  auto* cmd = app.add_subcommand(
      "rank",
      "Score every element of a spectrum and rank them, most suspicious first.\n"
      "Example: dlfl rank sfl/txt --formula ochiai --formula dstar2 --granularity function --top 10");
  cmd->add_option("INPUT", o->input, kSpectrumInputHelp)->required();
  cmd->add_option("--input-format", o->input_format, "Input format (default: detected)")
      ->check(CLI::IsMember(name_choices(io::spectrum_format_names())));
  cmd->add_option("-f,--formula", o->formulas,
                  "Formula name (see `dlfl formulas`), dstar:N, or an expression over ef, ep, nf, np; "
                  "repeat for several (default: ochiai)");
  const auto granularities =
      enum_names({Granularity::line, Granularity::block, Granularity::function, Granularity::file}, granularity_name);
  cmd->add_option("-g,--granularity", o->granularity,
                  "Rank lines, blocks (a function's lines with identical coverage, one element with its "
                  "line span), functions or files (default: line)")
      ->transform(granularities);
  cmd->add_option("--aggregate", o->aggregation,
                  "For function/file: 'spectrum' aggregates coverage then scores (default), "
                  "'max' scores lines and takes each group's maximum")
      ->check(CLI::IsMember({"spectrum", "max"}));
  const auto ties = enum_names({TieRule::best, TieRule::worst, TieRule::average}, tie_rule_name);
  cmd->add_option("--ties", o->ties, "Position reported for tied elements: best, worst, average (default)")
      ->transform(ties);
  cmd->add_option("-n,--top", o->top,
                  "Only the N most suspicious elements, and all tied with the last (0 = all; github: default 10, "
                  "llm-json/llm-markdown: default 20)")
      ->each([o](const std::string&) { o->top_given = true; });
  cmd->add_option("--min-score", o->min_score, "Only elements scoring at least this much");
  cmd->add_option("--format", o->format,
                  "Output format: table (default), csv, json, gzoltar (<formula>.ranking.csv, one formula), "
                  "sarif (SARIF 2.1.0 for code scanning), github (workflow annotations), html (one self-contained "
                  "page with a source heatmap), llm-json / llm-markdown (the context for an LLM-based localizer: "
                  "top elements with source snippets, failing tests with messages and code; docs/formats.md)")
      ->check(CLI::IsMember(name_choices(io::ranking_formats())));
  cmd->add_option("--source-root", o->source_root,
                  "sarif/github/html/llm-*: file names are relative to this directory (sarif's SRCROOT; html and "
                  "llm-* read the sources from it, never a file outside it; default: the current directory)");
  cmd->add_option("--max-bytes", o->max_bytes,
                  "llm-json/llm-markdown: at most this many bytes, leaving out the lowest-ranked elements first "
                  "and saying so (0 = no bound; default 65536)")
      ->each([o](const std::string&) { o->max_bytes_given = true; });
  cmd->add_option("--context-lines", o->context_lines,
                  "llm-json/llm-markdown: source lines quoted before and after each element (default 3)")
      ->check(CLI::Range(0, 50));
  cmd->add_option("--propagate", o->propagate,
                  "Use the call graph: prfl (PageRank-weighted spectrum, Zhang et al. ISSTA 2017) or neighbors "
                  "(callers/callees lift a function); functions rank first, then their lines")
      ->check(CLI::IsMember({"prfl", "neighbors"}));
  cmd->add_option("--call-graph", o->call_graph, "Call graph file for --propagate (dlfl instrument's dlfl-callgraph.tsv); its binary form is "
                  "cached beside it as FILE.cache, rebuilt when FILE changes");
  cmd->add_option("--multi-fault", o->multi_fault,
                  "Multi-fault ranking: flitsr (Callaghan and Fischer, ISSTA 2023): each fault's best element rises")
      ->check(CLI::IsMember({"flitsr"}));
  cmd->add_option("--mutation", o->mutation,
                  "Mutation-based ranking of lines from --kill-matrix: metallaxis (each line's best mutant, "
                  "scored by the formula over kills; Papadakis and Le Traon, STVR 2015), muse (Moon et al., "
                  "ICST 2014) or hybrid (the formula's order, its ties broken by metallaxis)")
      ->check(CLI::IsMember({"metallaxis", "muse", "hybrid"}));
  cmd->add_option("--kill-matrix", o->kill_matrix,
                  "Kill matrix for --mutation: `dlfl kill-matrix` writes it (a spectrum of mutants; any spectrum format)");
  cmd->add_option("-o,--output", o->output, "Output file, written atomically (default: stdout)");
  cmd->callback([o] { run_rank(*o); });
}

}  // namespace dlfl::cli
