// `dlfl compare`: per-bug result tables of several groups (DL vs traditional bugs, bug
// types) summarized per technique × group and tested for differences.
#include <memory>
#include <map>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/compare.h"
#include "dlfl/lab/eval/compare_report.h"
#include "dlfl/lab/eval/compare_table.h"

namespace dlfl::cli {
namespace {

struct CompareOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> groups;
  bool no_header = false;
  std::vector<std::string> columns;
  std::string technique = "unnamed";
  std::vector<std::string> filters;
  std::string labels;
  std::string by;
  std::string label_key = "id";
  std::vector<std::string> metrics{"mrr", "map"};
  std::vector<unsigned> top{1, 5, 10};
  std::string baseline;
  std::string format = "table";
  std::string output;
};

std::vector<std::pair<std::string, std::string>> parse_filters(const std::vector<std::string>& specs) {
  std::vector<std::pair<std::string, std::string>> filters;
  for (const auto& spec : specs) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error("--filter expects COLUMN=VALUE, e.g. level=file, not '" + spec + "'");
    filters.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
  }
  return filters;
}

void run_compare(const CompareOptions& o) {
  if (!o.groups.empty() && o.groups.size() != o.inputs.size())
    throw Error("give one --group per --input (" + std::to_string(o.inputs.size()) + " inputs, " +
                std::to_string(o.groups.size()) + " groups), or none to name groups by file");
  if (o.by.empty() != o.labels.empty()) throw Error("--labels and --by go together");
  // Fail on a bad format before reading anything.
  const auto format = eval::parse_comparison_format(o.format);

  eval::ResultTableOptions table_options;
  table_options.columns = o.columns;
  table_options.no_header = o.no_header;
  table_options.technique = o.technique;
  table_options.filters = parse_filters(o.filters);
  std::vector<eval::BugResult> results;
  for (std::size_t i = 0; i < o.inputs.size(); ++i) {
    table_options.group = o.groups.empty() ? std::filesystem::path(o.inputs[i]).stem().string() : o.groups[i];
    auto table = eval::read_result_table(o.inputs[i], table_options);
    if (table.results.empty())
      throw Error(o.inputs[i], 0,
                  table.filtered_out ? "every row was filtered out (--filter)" : "the table holds no result");
    results.insert(results.end(), std::make_move_iterator(table.results.begin()),
                   std::make_move_iterator(table.results.end()));
  }

  if (!o.by.empty()) {
    const auto labels = eval::read_label_column(o.labels, o.by, o.label_key);
    constexpr std::size_t kShown = 5;
    for (std::size_t i = 0; i < labels.warnings.size() && i < kShown; ++i) warn(labels.warnings[i]);
    if (labels.warnings.size() > kShown)
      warn(o.labels + ": " + std::to_string(labels.warnings.size() - kShown) + " more warnings");
    // One input group: pool by label; several: split each group by label ("dl/GPU").
    std::map<std::string, std::size_t> totals;
    for (const auto& r : results) ++totals[r.group];
    auto regrouped = eval::regroup_by_label(results, labels, totals.size() > 1);
    for (const auto& [group, missing] : regrouped.unlabelled)
      warn(std::to_string(missing) + " of " + std::to_string(totals[group]) + " results of group '" + group +
           "' have no row in " + o.labels + "; left out");
    if (regrouped.results.empty()) throw Error(o.labels, 0, "no result's bug has a label");
    results = std::move(regrouped.results);
  }

  eval::ComparisonOptions options;
  options.metrics = o.metrics;
  options.top_n = o.top;
  options.baseline = o.baseline;
  const eval::Comparison comparison = eval::compare(results, options);
  write_output(o.output, [&](std::ostream& out) { eval::write_comparison(out, comparison, *format); });
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare localization accuracy between groups of bugs from per-bug result tables: per\n"
      "technique and group n, Top@N, MRR, MAP; PerformanceDiff, Shapiro-Wilk, Student and Welch t,\n"
      "Mann-Whitney U, Cohen's d, Cliff's delta between groups; Wilcoxon between techniques.\n"
      "Example: dlfl compare --input bugl.csv --group traditional --input denchmark.csv --group dl \\\n"
      "           --no-header --columns project,version,bug,technique,n_faulty,first_rank,rr,ap");
  cmd->add_option("-i,--input", o->inputs,
                  "Per-bug result table (CSV); repeat, each followed by its --group")
      ->required();
  cmd->add_option("-g,--group", o->groups, "Group of the --input before it (default: the file's name)");
  cmd->add_flag("--no-header", o->no_header,
                "Tables start with data (needs --columns); a first line with text in a numeric "
                "column is still skipped as a header");
  cmd->add_option("--columns", o->columns,
                  "Column names in file order: project, version, bug, technique, n_faulty, first_rank "
                  "(0 = not retrieved), rr, ap, or any other name ('-' to ignore)")
      ->delimiter(',');
  cmd->add_option("--technique", o->technique, "Technique of tables without a technique column (default: unnamed)");
  cmd->add_option("--filter", o->filters, "Keep rows whose COLUMN equals VALUE (COLUMN=VALUE); repeat for more");
  cmd->add_option("--labels", o->labels, "Labels CSV joined on bug id (e.g. Jahan et al.'s labels.csv)");
  cmd->add_option("--by", o->by,
                  "Label column to group by, e.g. dl_bug_type, extrinsic, dl_bug, category; a column "
                  "X given as X_a1/X_a2 by two annotators counts where they agree");
  cmd->add_option("--label-key", o->label_key, "Column of --labels holding bug ids (default: id)");
  cmd->add_option("-m,--metric", o->metrics,
                  "Metrics to test and chart: mrr, map, topN, first_rank or a numeric column "
                  "(default: mrr,map)")
      ->delimiter(',');
  cmd->add_option("--top", o->top, "Top-N cut-offs summarized (default: 1,5,10)")->delimiter(',');
  cmd->add_option("--baseline", o->baseline,
                  "Test only this group against each other one (default: every pair, first given as a)");
  cmd->add_option("--format", o->format, "table (default), csv, json or svg (a bar chart)")
      ->check(CLI::IsMember({"table", "csv", "json", "svg"}));
  cmd->add_option("-o,--output", o->output, "Output file, written atomically (default: stdout)");
  cmd->callback([o] { run_compare(*o); });
}

}  // namespace dlfl::cli
