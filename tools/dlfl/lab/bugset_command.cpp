// `dlfl bugset import denchmark|bugscpp DIR` and `dlfl bugset stats MANIFEST`: thin
// front-ends to the bug-set library (Denchmark and BugsC++ importers, JSON-lines manifest,
// labels, statistics).
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/lab/bench/git_clone.h"
#include "dlfl/limits.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/bugscpp_import.h"
#include "dlfl/lab/eval/bugset_candidates.h"
#include "dlfl/lab/eval/bugset_labels.h"
#include "dlfl/lab/eval/bugset_manifest.h"
#include "dlfl/lab/eval/bugset_stats.h"
#include "dlfl/lab/eval/denchmark.h"

namespace dlfl::cli {
namespace {

struct ImportOptions {
  std::string source = "denchmark";
  std::string dir;
  std::string output;
  std::string labels;
  bool strict = false;
  unsigned threads = 0;
};

void run_import(const ImportOptions& o) {
  if (o.source == "bugscpp") {
    if (!o.labels.empty()) throw Error("--labels joins Denchmark bugs' labels; BugsC++ defects have none");
    const std::vector<eval::BugReport> bugs = eval::import_bugscpp(o.dir);
    write_output(o.output, [&](std::ostream& out) { eval::write_manifest(out, bugs); });
    std::cerr << "dlfl: imported " << bugs.size() << " BugsC++ defects\n";
    return;
  }
  eval::DenchmarkImportOptions options;
  options.strict = o.strict;
  options.threads = o.threads;
  eval::DenchmarkImport imported = eval::import_denchmark(o.dir, options);
  for (const auto& w : imported.warnings) warn(w);
  if (!o.labels.empty()) {
    const eval::LabelTable table = eval::read_jahan_labels(o.labels);
    for (const auto& w : table.warnings) warn(w);
    const auto joined = eval::join_labels(imported.bugs, table, "denchmark");
    std::cerr << "dlfl: labels for " << joined.joined << " bugs from " << o.labels;
    if (!joined.unmatched_ids.empty())
      std::cerr << "; " << joined.unmatched_ids.size() << " labelled ids are not among the imported bugs";
    std::cerr << '\n';
  }
  write_output(o.output, [&](std::ostream& out) { eval::write_manifest(out, imported.bugs); });
  std::cerr << "dlfl: imported " << imported.bugs.size() << " bugs";
  if (imported.skipped_reports)
    std::cerr << "; skipped " << imported.skipped_reports << " malformed reports (warnings above)";
  std::cerr << '\n';
}

struct StatsOptions {
  std::string manifest;
  std::string repos;  // clones: count the candidates with CMake at the root
  std::string format = "table";
  std::string output;
};

std::string percent(std::size_t part, std::size_t whole) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buffer;
}

// A count map as indented lines, largest first (ties by name); at most `limit` lines.
void write_counts(std::ostream& out, const std::string& title, const std::map<std::string, std::size_t>& counts,
                  std::size_t whole, std::size_t limit = 0) {
  std::vector<std::pair<std::string, std::size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (limit && sorted.size() > limit + 1) {
    const std::size_t more = sorted.size() - limit;
    sorted.resize(limit);
    sorted.emplace_back("... " + std::to_string(more) + " more", 0);
  }
  std::size_t width = 0;
  for (const auto& [name, n] : sorted) width = std::max(width, name.size());
  out << title << '\n';
  for (const auto& [name, n] : sorted) {
    if (name.starts_with("... ")) {
      out << "  " << name << '\n';
      continue;
    }
    char line[64];
    std::snprintf(line, sizeof line, "%7zu  %6s", n, percent(n, whole).c_str());
    out << "  " << name << std::string(width - name.size(), ' ') << line << '\n';
  }
}

// Reproduction candidates whose clone is under --repos and builds with CMake: the fix's
// parent has a CMakeLists.txt at the root (the generic recipe of `bugset reproduce`).
struct CMakeCandidates {
  bool checked = false;
  std::size_t with_cmake = 0;
  std::size_t without_cmake = 0;
  std::size_t no_clone = 0;       // candidates whose project has no usable clone
  std::size_t missing_commit = 0;  // the fix (or its parent) is not in the clone
};

CMakeCandidates count_cmake_candidates(const std::vector<eval::BugReport>& bugs, const std::string& repos) {
  CMakeCandidates c;
  if (repos.empty()) return c;
  c.checked = true;
  std::map<std::string, std::optional<bench::GitClone>> clones;
  for (const auto& bug : bugs) {
    const eval::BugCandidacy candidacy = eval::bug_candidacy(bug);
    if (!candidacy.native_change() || !candidacy.tests_touched()) continue;
    auto it = clones.find(bug.project);
    if (it == clones.end()) {
      std::optional<bench::GitClone> clone;
      try {
        clone = bench::GitClone::find(repos, bug.project);
      } catch (const Error& e) {
        warn(e.message());
      }
      it = clones.emplace(bug.project, std::move(clone)).first;
    }
    if (!it->second) {
      ++c.no_clone;
      continue;
    }
    const auto parent = it->second->resolve(bug.fix_commit) ? it->second->parent(bug.fix_commit) : std::nullopt;
    if (!parent) ++c.missing_commit;
    else if (it->second->has_file(*parent, "CMakeLists.txt")) ++c.with_cmake;
    else ++c.without_cmake;
  }
  return c;
}

void write_candidates_table(std::ostream& out, const eval::BugsetStats& s, const CMakeCandidates& c) {
  out << "\nReproduction candidates (dlfl bugset reproduce): " << s.reproduction_candidates << " ("
      << percent(s.reproduction_candidates, s.bugs) << ") with C/C++/CUDA changes outside the tests ("
      << s.bugs_with_native_fix << ") and a test file touched by the fix (" << s.bugs_touching_tests << ")\n";
  if (!c.checked) {
    out << "  with CMake at the root: give --repos DIR (the clones) to check\n";
    return;
  }
  out << "  with CMakeLists.txt at the root of the fix's parent: " << c.with_cmake << "; without: " << c.without_cmake
      << "; fix not in the clone: " << c.missing_commit << "; no clone under the --repos directory: " << c.no_clone
      << '\n';
}

void write_stats_table(std::ostream& out, const eval::BugsetStats& s) {
  out << "Bugs: " << s.bugs << " from " << s.projects << " projects, " << s.file_changes << " changed files\n\n";
  write_counts(out, "Bugs per project category:", s.bugs_per_category, s.bugs);
  write_counts(out, "\nBugs per project language (a bug counts once per language of its project):",
               s.bugs_per_language, s.bugs);
  write_counts(out, "\nBugs per DL framework used:", s.bugs_per_dl_framework, s.bugs);
  write_counts(out, "\nBugs per change type (a bug with such a file):", s.bugs_per_change_type, s.bugs);
  write_counts(out, "\nBugs per file type touched (top 15):", s.bugs_per_extension, s.bugs, 15);
  const auto& f = s.fix_size;
  char line[256];
  std::snprintf(line, sizeof line,
                "\nFix size (changed lines, added + deleted): min %zu, q1 %.1f, median %.1f, mean %.1f, "
                "q3 %.1f, max %zu\n",
                f.min, f.q1, f.median, f.mean, f.q3, f.max);
  out << line;
  out << "  fixes of at most 10 lines: " << f.at_most_10 << " of " << f.bugs - f.without_lines << " ("
      << percent(f.at_most_10, f.bugs - f.without_lines)
      << "; Yu et al. 2025 report 48% for distributed LLM frameworks)\n"
      << "  fixes of whole-file changes only (size unknown, left out): " << f.without_lines << '\n';
  for (const auto& [bucket, n] : f.histogram) {
    std::snprintf(line, sizeof line, "  %-8s %7zu  %6s\n", bucket.c_str(), n, percent(n, f.bugs).c_str());
    out << line;
  }
  out << "\nBugs touching C/C++/CUDA files: " << s.bugs_touching_native << " (" << percent(s.bugs_touching_native, s.bugs)
      << "); CUDA files: " << s.bugs_touching_cuda << "; with C/C++/CUDA ground truth: "
      << s.bugs_with_native_ground_truth << '\n';
  if (s.labelled_bugs) {
    out << '\n';
    write_counts(out, "Labelled bugs per DL bug type (annotators' agreed value): " +
                          std::to_string(s.labelled_bugs) + " labelled",
                 s.bugs_per_dl_bug_type, s.labelled_bugs);
    out << "  extrinsic " << s.extrinsic_bugs << " (" << percent(s.extrinsic_bugs, s.labelled_bugs)
        << "), intrinsic " << s.intrinsic_bugs << ", disputed or not given " << s.extrinsic_disputed << '\n';
  }
}

void write_stats_json(std::ostream& out, const eval::BugsetStats& s, const CMakeCandidates& c) {
  using json = nlohmann::ordered_json;
  const auto& f = s.fix_size;
  json histogram = json::array();
  for (const auto& [bucket, n] : f.histogram) histogram.push_back({{"size", bucket}, {"bugs", n}});
  const json doc{{"bugs", s.bugs},
                 {"projects", s.projects},
                 {"file_changes", s.file_changes},
                 {"bugs_per_category", s.bugs_per_category},
                 {"bugs_per_language", s.bugs_per_language},
                 {"bugs_per_dl_framework", s.bugs_per_dl_framework},
                 {"bugs_per_change_type", s.bugs_per_change_type},
                 {"file_changes_per_change_type", s.file_changes_per_change_type},
                 {"file_changes_per_extension", s.file_changes_per_extension},
                 {"bugs_per_extension", s.bugs_per_extension},
                 {"fix_size",
                  {{"bugs", f.bugs},
                   {"min", f.min},
                   {"q1", f.q1},
                   {"median", f.median},
                   {"mean", f.mean},
                   {"q3", f.q3},
                   {"max", f.max},
                   {"without_lines", f.without_lines},
                   {"at_most_10", f.at_most_10},
                   {"share_at_most_10", f.share_at_most_10},
                   {"histogram", std::move(histogram)}}},
                 {"bugs_touching_native", s.bugs_touching_native},
                 {"bugs_touching_cuda", s.bugs_touching_cuda},
                 {"bugs_with_native_ground_truth", s.bugs_with_native_ground_truth},
                 {"labelled_bugs", s.labelled_bugs},
                 {"bugs_per_dl_bug_type", s.bugs_per_dl_bug_type},
                 {"extrinsic_bugs", s.extrinsic_bugs},
                 {"intrinsic_bugs", s.intrinsic_bugs},
                 {"extrinsic_disputed", s.extrinsic_disputed},
                 {"reproduction",
                  {{"native_fix", s.bugs_with_native_fix},
                   {"tests_touched", s.bugs_touching_tests},
                   {"candidates", s.reproduction_candidates},
                   {"cmake_checked", c.checked},
                   {"with_cmake", c.with_cmake},
                   {"without_cmake", c.without_cmake},
                   {"missing_commit", c.missing_commit},
                   {"no_clone", c.no_clone}}}};
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void run_stats(const StatsOptions& o) {
  const auto bugs = eval::read_manifest(o.manifest);
  const eval::BugsetStats stats = eval::bugset_stats(bugs);
  const CMakeCandidates cmake = count_cmake_candidates(bugs, o.repos);
  write_output(o.output, [&](std::ostream& out) {
    if (o.format == "json") {
      write_stats_json(out, stats, cmake);
      return;
    }
    write_stats_table(out, stats);
    write_candidates_table(out, stats, cmake);
  });
}

}  // namespace

void add_bugset_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bugset",
      "Import bug sets into a JSON-lines manifest (ground truth for `dlfl eval --bug`) and describe them.\n"
      "Example: dlfl bugset import denchmark Denchmark_BRs -o manifest.jsonl && dlfl bugset stats manifest.jsonl");
  cmd->require_subcommand(1);

  auto in = std::make_shared<ImportOptions>();
  auto* import = cmd->add_subcommand(
      "import",
      "Read a bug set's raw reports into a manifest: one JSON object a line per bug (id, project,\n"
      "category, languages, title, body, fix commit, changed files with deleted/added lines).\n"
      "A malformed report is skipped with a warning naming its file (--strict: an error).\n"
      "bugscpp: a BugsC++ checkout's taxonomy (meta.json, patches, extra files; one bug per defect,\n"
      "the buggy patch's lines as ground truth, what `bugset reproduce` needs to build and run its cases).\n"
      "Example: dlfl bugset import denchmark ~/Denchmark_BRs -o manifest.jsonl --labels labels.csv\n"
      "Example: dlfl bugset import bugscpp ~/bugscpp -o bugscpp.jsonl");
  import->add_option("SOURCE", in->source, "Bug set kind: denchmark or bugscpp")
      ->required()
      ->check(CLI::IsMember({"denchmark", "bugscpp"}));
  import->add_option("DIR", in->dir,
                     "A Denchmark_BRs checkout (or the directory holding one); a BugsC++ checkout or its taxonomy folder")
      ->required();
  import->add_option("-o,--output", in->output, "Manifest file, written atomically (default: stdout)");
  import->add_option("--labels", in->labels,
                     "Join Jahan et al.'s labels.csv (bug type, extrinsic, both annotators) by bug id");
  import->add_flag("--strict", in->strict, "A malformed report is an error, not a warning");
  import->add_option("-j,--threads", in->threads, "Parser threads (default: one per core, at most 8)")
      ->check(CLI::Range(1u, kMaxJobs));
  import->callback([in] { run_import(*in); });

  auto st = std::make_shared<StatsOptions>();
  auto* stats = cmd->add_subcommand(
      "stats",
      "Describe a manifest: bugs per category and language, file types touched, fix sizes (share of\n"
      "fixes of at most 10 changed lines), bugs touching C/C++/CUDA files, bugs per DL bug type, and the\n"
      "candidates of `dlfl bugset reproduce` (C/C++/CUDA fix outside the tests, a test touched by the fix;\n"
      "with --repos, CMake at the root of the clone).\n"
      "Example: dlfl bugset stats manifest.jsonl --repos ~/clones --format json");
  stats->add_option("MANIFEST", st->manifest, "Manifest (dlfl bugset import)")->required();
  stats->add_option("--repos", st->repos, "Directory of the projects' git clones: count candidates with CMake at the root");
  stats->add_option("--format", st->format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  stats->add_option("-o,--output", st->output, "Output file, written atomically (default: stdout)");
  stats->callback([st] { run_stats(*st); });

  add_bugset_reproduce_command(*cmd);
  add_bugset_join_command(*cmd);
  add_bugset_truth_command(*cmd);
}

}  // namespace dlfl::cli
