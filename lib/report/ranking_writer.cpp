// RankingWriter factory and the number formatting every ranking format shares.
#include "dlfl/report/ranking_writer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <string>

#include "dlfl/error.h"
#include "dlfl/formula.h"
#include "ranking_text.h"

namespace dlfl::io {

namespace detail {

std::string format_rank(double position) {
  // Positions are counts (< 2^53), so a whole one prints exactly as an integer.
  if (position == std::floor(position) && std::fabs(position) < 9007199254740992.0)
    return fmt::format("{}", static_cast<long long>(position));
  return fmt::format("{}", position);
}

std::string format_score(double score) { return fmt::format("{}", score); }

std::string_view kind_name(ElementKind kind) noexcept {
  return kind == ElementKind::extrinsic ? "extrinsic" : "code";
}

std::string readable_score(double score) {
  if (score == kInfiniteScore) return "max";
  if (score == -kInfiniteScore) return "-max";
  return fmt::format("{:.6g}", score);
}

std::string readable_count(double count) {
  if (count == std::floor(count) && std::fabs(count) < 9007199254740992.0)
    return fmt::format("{}", static_cast<long long>(count));
  return fmt::format("{:.4g}", count);
}

std::string execution_summary(const Counts& counts, std::uint32_t e) {
  return fmt::format("executed by {} of {} failing and {} of {} passing tests", readable_count(counts.ef[e]),
                     readable_count(counts.ef[e] + counts.nf[e]), readable_count(counts.ep[e]),
                     readable_count(counts.ep[e] + counts.np[e]));
}

std::string_view outcome_text(const TestCase& test) noexcept {
  switch (test.status) {
    case TestStatus::crashed: return "crashed";
    case TestStatus::timed_out: return "timed out";
    case TestStatus::flaky: return "flaky";
    case TestStatus::failed: return "failed";
    case TestStatus::passed: break;
  }
  return test.failed() ? "failed" : "passed";
}

std::string element_word(const RankingWriteOptions& options) {
  return options.granularity.empty() ? "element" : std::string(options.granularity);
}

std::string tie_text(const RankedElement& r) {
  return r.best == r.worst ? std::string("no tie") : fmt::format("tie {}..{}", r.best, r.worst);
}

std::string report_path(std::string_view file, const std::filesystem::path& root) {
  std::filesystem::path path{std::string(file)};
  if (!root.empty() && path.is_absolute()) {
    std::error_code ec;  // absolute() only fails without a current directory
    const auto base = std::filesystem::absolute(root, ec).lexically_normal();
    const auto relative = path.lexically_normal().lexically_relative(base);
    if (!relative.empty() && *relative.begin() != "..") path = relative;
  }
  std::string text = path.generic_string();
  std::replace(text.begin(), text.end(), '\\', '/');
  return text;
}

const Counts& required_counts(const RankingWriteOptions& options, const Spectrum& spectrum,
                              std::string_view format) {
  if (options.counts == nullptr)
    throw Error("the " + std::string(format) + " ranking format reports ef/ep/nf/np: pass the counts");
  if (static_cast<std::size_t>(options.counts->size()) != spectrum.element_count())
    throw Error("the " + std::string(format) + " ranking format got counts of " +
                std::to_string(options.counts->size()) + " elements for a spectrum of " +
                std::to_string(spectrum.element_count()));
  return *options.counts;
}

double normalized_score(double score, double lowest, double highest) {
  if (score >= kInfiniteScore) return 100.0;
  if (score <= -kInfiniteScore) return 0.0;
  if (!(highest > lowest)) return score > 0.0 ? 100.0 : 0.0;
  const double share = std::clamp((score - lowest) / (highest - lowest), 0.0, 1.0);
  return std::round(share * 10000.0) / 100.0;
}

std::pair<double, double> score_range(const FormulaRanking& ranking) {
  if (!std::isnan(ranking.lowest_score) && !std::isnan(ranking.highest_score))
    return {ranking.lowest_score, ranking.highest_score};
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  for (const auto& r : ranking.ranking) {
    if (std::fabs(r.score) >= kInfiniteScore) continue;
    lowest = std::min(lowest, r.score);
    highest = std::max(highest, r.score);
  }
  if (lowest > highest) return {0.0, 0.0};
  return {lowest, highest};
}

}  // namespace detail

namespace {

// The ranking output formats, the one list of them: make_ranking_writer, its error
// message and the CLI's --format choices (ranking_formats) all read it.
struct RankingFormat {
  std::string_view name;
  std::unique_ptr<RankingWriter> (*make)();
};
constexpr std::array<RankingFormat, 9> kFormats = {{
    {"table", detail::make_table_ranking_writer},
    {"csv", detail::make_csv_ranking_writer},
    {"json", detail::make_json_ranking_writer},
    {"gzoltar", detail::make_gzoltar_ranking_writer},
    {"sarif", detail::make_sarif_ranking_writer},
    {"github", detail::make_github_ranking_writer},
    {"html", detail::make_html_ranking_writer},
    {"llm-json", detail::make_llm_json_ranking_writer},
    {"llm-markdown", detail::make_llm_markdown_ranking_writer},
}};
constexpr std::array<std::string_view, kFormats.size()> kFormatNames = [] {
  std::array<std::string_view, kFormats.size()> names{};
  for (std::size_t i = 0; i < kFormats.size(); ++i) names[i] = kFormats[i].name;
  return names;
}();

// "table, csv, ... or llm-markdown".
std::string format_list() {
  std::string list;
  for (std::size_t i = 0; i < kFormatNames.size(); ++i) {
    if (i > 0) list += i + 1 == kFormatNames.size() ? " or " : ", ";
    list += kFormatNames[i];
  }
  return list;
}

}  // namespace

std::span<const std::string_view> ranking_formats() noexcept { return kFormatNames; }

std::unique_ptr<RankingWriter> make_ranking_writer(std::string_view format) {
  std::string lower(format);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const RankingFormat& f : kFormats)
    if (lower == f.name) return f.make();
  throw Error("unknown ranking format '" + excerpt(format) + "' (expected " + format_list() + ")");
}

}  // namespace dlfl::io
