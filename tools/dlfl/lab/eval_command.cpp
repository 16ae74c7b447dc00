// `dlfl eval RANKING`: how well a ranking places a bug's known faulty elements (EXAM,
// Top-N, E_inspect, wasted effort, AP, RR under each tie rule, at each level).
#include <map>
#include <memory>
#include <optional>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset.h"
#include "dlfl/lab/eval/bugset_manifest.h"
#include "dlfl/lab/eval/evaluation_batch.h"
#include "dlfl/lab/eval/evaluation_report.h"
#include "dlfl/lab/eval/ground_truth.h"
#include "dlfl/lab/eval/metrics.h"
#include "dlfl/formats/ranking_reader.h"

namespace dlfl::cli {
namespace {

struct EvalOptions {
  std::string ranking;
  std::string input_format;
  std::string truth;
  std::string bug;  // MANIFEST:ID
  std::string id;
  std::string batch;
  std::string manifest;
  std::vector<std::string> formulas;
  std::string technique;
  std::string level = "all";
  std::string ties = "all";
  std::vector<std::uint64_t> top{1, 3, 5, 10};
  bool native_only = false;
  std::string exam_base = "instrumented";
  std::optional<std::uint64_t> executable;
  std::string top_n_rule = "expected";
  std::string format = "table";
  std::string output;
};

// One level, or "all": line, function, file.
std::vector<Granularity> levels_of(const std::string& level) {
  if (const auto one = parse_granularity(level)) return {*one};
  return {Granularity::line, Granularity::function, Granularity::file};
}

// One tie rule, or "all".
std::vector<TieRule> rules_of(const std::string& ties) {
  if (const auto one = parse_tie_rule(ties)) return {*one};
  return {TieRule::best, TieRule::worst, TieRule::average};
}

// Manifests read once per run, however many bugs a batch takes from them.
class Manifests {
 public:
  const eval::BugReport& bug(const std::string& path, const std::string& id) {
    auto it = cache_.find(path);
    if (it == cache_.end()) it = cache_.emplace(path, eval::read_manifest(path)).first;
    const eval::BugReport* bug = eval::find_bug(it->second, id);
    if (!bug) throw Error(path, 0, "no bug with id '" + id + "'");
    return *bug;
  }

 private:
  std::map<std::string, std::vector<eval::BugReport>> cache_;
};

// Deleted lines of the old file are the faulty lines; an ADD-only change counts at file
// level (bugset.h GroundTruthOptions).
std::vector<eval::GroundTruthItem> manifest_truth(Manifests& manifests, const std::string& path,
                                                  const std::string& id, bool native_only) {
  eval::GroundTruthOptions options;
  if (native_only) options.keep_file = eval::is_native_source;
  auto faults = eval::ground_truth(manifests.bug(path, id), options);
  if (faults.empty())
    throw Error(path, 0,
                "bug '" + id + "' has no faulty element" +
                    (native_only ? " in C/C++/CUDA files" : " (its fix only renames files)"));
  return faults;
}

// "MANIFEST:ID" split at the last ':' (ids hold none; a path may, e.g. C:/...).
std::pair<std::string, std::string> split_bug(const std::string& spec) {
  const auto colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    throw Error("--bug expects MANIFEST:ID, e.g. manifest.jsonl:pytorch+pytorch#1234, not '" + spec + "'");
  return {spec.substr(0, colon), spec.substr(colon + 1)};
}

struct Job {
  std::string bug;
  std::string ranking;
  std::string technique;  // empty: the ranking's formula
  std::vector<eval::GroundTruthItem> faults;
};

void evaluate_job(const Job& job, const EvalOptions& o, std::vector<eval::BugEvaluation>& out) {
  std::optional<io::RankingFileFormat> format;
  if (!o.input_format.empty()) format = io::parse_ranking_file_format(o.input_format);
  const auto rankings = io::read_rankings(job.ranking, format);
  const eval::EvaluationOptions options{
      .top_n = o.top,
      .total_elements = o.executable,
      .exam_base = o.exam_base == "executed"     ? eval::ExamBase::executed
                   : o.exam_base == "executable" ? eval::ExamBase::executable
                                                 : eval::ExamBase::instrumented,
      .top_n_rule = o.top_n_rule == "hits" ? eval::TopNRule::hits : eval::TopNRule::expected};
  bool any = false;
  for (const auto& ranking : rankings) {
    if (!o.formulas.empty() &&
        std::find(o.formulas.begin(), o.formulas.end(), ranking.formula) == o.formulas.end())
      continue;
    any = true;
    // A ranking that does not name its formula is named by the user, else by its file.
    std::string technique = !job.technique.empty()     ? job.technique
                            : !ranking.formula.empty() ? ranking.formula
                                                       : std::filesystem::path(job.ranking).stem().string();
    for (const Granularity level : levels_of(o.level))
      out.push_back({job.bug, technique, level, eval::evaluate_at(ranking.elements, job.faults, level, options)});
  }
  if (!any) throw Error(job.ranking, 0, "holds none of the formulas asked for with --formula");
}

void run_eval(const EvalOptions& o) {
  const int sources = !o.truth.empty() + !o.bug.empty() + !o.batch.empty();
  if (sources != 1) throw Error("give exactly one of --truth FILE, --bug MANIFEST:ID or --batch FILE");
  if (o.batch.empty() && o.ranking.empty()) throw Error("no RANKING to evaluate");
  if (!o.batch.empty() && !o.ranking.empty())
    throw Error("--batch names the rankings itself; give no RANKING with it");
  for (const auto n : o.top)
    if (n == 0) throw Error("--top needs N >= 1");
  if (o.exam_base == "executable" && !o.executable)
    throw Error("--exam-base executable needs --executable N, the program's executable line count");
  if (o.executable && o.exam_base != "executable")
    throw Error("--executable N goes with --exam-base executable");
  if (o.executable && o.level != "line")
    throw Error("--executable N counts lines: it needs --level line");
  const auto format = eval::parse_evaluation_format(o.format);
  Manifests manifests;
  std::vector<eval::BugEvaluation> evaluations;

  if (o.batch.empty()) {
    Job job{o.id, o.ranking, o.technique, {}};
    if (!o.truth.empty()) {
      job.faults = eval::read_ground_truth(o.truth);
      if (job.faults.empty()) throw Error(o.truth, 0, "the ground truth lists no faulty element");
      if (job.bug.empty()) job.bug = std::filesystem::path(o.truth).stem().string();
    } else {
      const auto [path, id] = split_bug(o.bug);
      job.faults = manifest_truth(manifests, path, id, o.native_only);
      if (job.bug.empty()) job.bug = id;
    }
    evaluate_job(job, o, evaluations);
  } else {
    for (const auto& entry : eval::read_evaluation_batch(o.batch)) {
      try {
        Job job{entry.bug, entry.ranking.string(), entry.technique.empty() ? o.technique : entry.technique, {}};
        if (!entry.truth.empty()) {
          job.faults = eval::read_ground_truth(entry.truth);
          if (job.faults.empty()) throw Error(entry.truth.string(), 0, "the ground truth lists no faulty element");
        } else if (!o.manifest.empty()) {
          job.faults = manifest_truth(manifests, o.manifest, entry.bug, o.native_only);
        } else {
          throw Error("no truth file, and no --manifest to take bug '" + entry.bug + "' from");
        }
        evaluate_job(job, o, evaluations);
      } catch (const Error& e) {
        // Name the batch row too: the inner message may name only a ranking file.
        throw Error(o.batch, entry.line, e.message());
      }
    }
  }
  const auto rules = rules_of(o.ties);
  write_output(o.output, [&](std::ostream& out) { eval::write_evaluations(out, evaluations, rules, *format); });
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto o = std::make_shared<EvalOptions>();
  auto* cmd = app.add_subcommand(
      "eval",
      "Score a ranking against a bug's known faulty elements: EXAM, Top-N, E_inspect, wasted\n"
      "effort, AP and RR under best/worst/average tie handling, at line, function and file level.\n"
      "Example: dlfl eval ochiai.csv --truth faults.txt --level function --ties average");
  cmd->add_option("RANKING", o->ranking,
                  "Ranking file: dlfl's csv or json (dlfl rank), or GZoltar's <formula>.ranking.csv");
  cmd->add_option("--input-format", o->input_format, "Ranking format (default: detected)")
      ->check(CLI::IsMember({"csv", "json", "gzoltar"}));
  cmd->add_option("--truth", o->truth,
                  "Ground truth: one 'file', 'file:LINE', 'file:LINE:function' or 'file:function' a line");
  cmd->add_option("--bug", o->bug,
                  "Ground truth from a bug-set manifest entry, MANIFEST:ID (dlfl bugset import): the "
                  "deleted lines of the fix; a file the fix only added lines to counts as a whole file");
  cmd->add_flag("--native-only", o->native_only,
                "With --bug/--manifest: only C/C++/CUDA files of the fix count as faulty");
  cmd->add_option("--id", o->id, "Bug id in the output (default: the manifest id or the truth file's name)");
  cmd->add_option("--batch", o->batch,
                  "Evaluate many: a CSV with header bug,ranking[,truth][,technique] (paths relative to it); "
                  "rows without truth take bug from --manifest");
  cmd->add_option("--manifest", o->manifest, "Bug-set manifest for --batch rows without a truth file");
  cmd->add_option("-f,--formula", o->formulas,
                  "Only the ranking(s) of this formula when the file holds several; repeat for more");
  cmd->add_option("--technique", o->technique,
                  "Technique name in the output (default: the ranking's formula, else its file name)");
  cmd->add_option("--level", o->level,
                  "line, block (adjacent lines of a function with equal scores count as one), function, "
                  "file or all (line, function, file; default)")
      ->check(CLI::IsMember({"line", "block", "function", "file", "all"}));
  cmd->add_option("--ties", o->ties, "Tie rule(s) to report: best, worst, average or all (default)")
      ->check(CLI::IsMember({"best", "worst", "average", "all"}));
  cmd->add_option("--top", o->top, "Top-N cut-offs (default: 1 3 5 10); repeat or list")->delimiter(',');
  cmd->add_option("--exam-base", o->exam_base,
                  "What EXAM divides the first fault's position by: instrumented (default: every ranked element, "
                  "run or not), executable (--executable N, the program's executable lines), executed (only "
                  "elements some test ran; the others leave the ranking, needs a ranking with ef/ep)")
      ->check(CLI::IsMember({"instrumented", "executable", "executed"}));
  cmd->add_option("--executable", o->executable,
                  "With --exam-base executable: the program's executable line count (>= the ranking's size)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--top-n-rule", o->top_n_rule,
                  "Top-N under the average tie rule: expected (default: the probability of a hit within N) or hits "
                  "(1 when the expected position of the first fault is within N, as most papers count)")
      ->check(CLI::IsMember({"expected", "hits"}));
  cmd->add_option("--format", o->format,
                  "table (default), csv (the per-bug table `dlfl compare` reads) or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  cmd->add_option("-o,--output", o->output, "Output file, written atomically (default: stdout)");
  cmd->callback([o] { run_eval(*o); });
}

}  // namespace dlfl::cli
