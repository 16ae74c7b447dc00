// Bug-set statistics: counts per category, language, file type and bug type, and the
// distribution of fix sizes (compared with Yu et al. 2025: 48% of fixes change <= 10 lines).
#include "dlfl/lab/eval/bugset_stats.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <set>

#include "dlfl/lab/eval/bugset_candidates.h"

namespace dlfl::eval {
namespace {

// R's type-7 quantile of sorted values: linear between the order statistics around
// p (n - 1).
double quantile(const std::vector<std::size_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double position = p * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return static_cast<double>(sorted[below]) +
         fraction * (static_cast<double>(sorted[above]) - static_cast<double>(sorted[below]));
}

FixSizeSummary summarize_fix_sizes(std::vector<std::size_t> sizes) {
  FixSizeSummary summary;
  struct Bucket {
    const char* name;
    std::size_t upper;  // inclusive
  };
  constexpr std::array<Bucket, 6> buckets = {{{"0", 0},
                                              {"1-10", 10},
                                              {"11-50", 50},
                                              {"51-100", 100},
                                              {"101-500", 500},
                                              {">500", static_cast<std::size_t>(-1)}}};
  for (const Bucket& bucket : buckets) summary.histogram.emplace_back(bucket.name, 0);
  summary.bugs = sizes.size();
  if (sizes.empty()) return summary;
  std::sort(sizes.begin(), sizes.end());
  summary.min = sizes.front();
  summary.max = sizes.back();
  summary.mean = static_cast<double>(std::accumulate(sizes.begin(), sizes.end(), std::size_t{0})) /
                 static_cast<double>(sizes.size());
  summary.q1 = quantile(sizes, 0.25);
  summary.median = quantile(sizes, 0.5);
  summary.q3 = quantile(sizes, 0.75);
  for (const std::size_t size : sizes) {
    if (size == 0)
      ++summary.without_lines;
    else if (size <= 10)
      ++summary.at_most_10;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      if (size <= buckets[b].upper) {
        ++summary.histogram[b].second;
        break;
      }
    }
  }
  const std::size_t with_lines = summary.bugs - summary.without_lines;
  if (with_lines != 0)
    summary.share_at_most_10 = static_cast<double>(summary.at_most_10) / static_cast<double>(with_lines);
  return summary;
}

bool is_cuda_source(std::string_view path) {
  const std::string extension = file_extension(path);
  return extension == ".cu" || extension == ".cuh";
}

}  // namespace

BugsetStats bugset_stats(const std::vector<BugReport>& bugs) {
  BugsetStats stats;
  stats.bugs = bugs.size();
  std::set<std::string_view> projects;
  std::vector<std::size_t> sizes;
  sizes.reserve(bugs.size());
  GroundTruthOptions native_only;
  native_only.keep_file = [](std::string_view path) { return is_native_source(path); };

  for (const BugReport& bug : bugs) {
    projects.insert(bug.project);
    ++stats.bugs_per_category[bug.category.empty() ? std::string(unknown_key) : bug.category];
    for (const std::string& language : bug.languages) ++stats.bugs_per_language[language];
    for (const std::string& framework : bug.dl_frameworks) ++stats.bugs_per_dl_framework[framework];
    for (const ChangeType type : change_types(bug)) ++stats.bugs_per_change_type[std::string(to_string(type))];

    std::set<std::string> extensions;
    bool native = false, cuda = false;
    for (const FileChange& file : bug.files) {
      ++stats.file_changes;
      ++stats.file_changes_per_change_type[std::string(to_string(file.change_type))];
      std::string extension = file_extension(file.path());
      if (extension.empty()) extension = no_extension_key;
      ++stats.file_changes_per_extension[extension];
      extensions.insert(std::move(extension));
      native = native || is_native_source(file.path());
      cuda = cuda || is_cuda_source(file.path());
    }
    for (const std::string& extension : extensions) ++stats.bugs_per_extension[extension];
    stats.bugs_touching_native += native;
    stats.bugs_touching_cuda += cuda;
    if (native && !ground_truth(bug, native_only).empty()) ++stats.bugs_with_native_ground_truth;
    sizes.push_back(changed_line_count(bug));
    const BugCandidacy candidacy = bug_candidacy(bug);
    stats.bugs_with_native_fix += candidacy.native_change();
    stats.bugs_touching_tests += candidacy.tests_touched();
    stats.reproduction_candidates += candidacy.native_change() && candidacy.tests_touched();

    if (!bug.labels) continue;
    ++stats.labelled_bugs;
    const AnnotatorLabels& agreed = bug.labels->agreed;
    const std::string type = !agreed.dl_bug_type.empty()       ? agreed.dl_bug_type
                             : agreed.dl_bug == false          ? std::string(not_dl_bug_key)
                                                               : std::string(disputed_key);
    ++stats.bugs_per_dl_bug_type[type];
    if (!agreed.extrinsic)
      ++stats.extrinsic_disputed;
    else if (*agreed.extrinsic)
      ++stats.extrinsic_bugs;
    else
      ++stats.intrinsic_bugs;
  }
  stats.projects = projects.size();
  stats.fix_size = summarize_fix_sizes(std::move(sizes));
  return stats;
}

}  // namespace dlfl::eval
