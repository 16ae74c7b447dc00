// Pieces shared by the ranking writers: number formatting and the per-format factories.
// Internal to dlfl_report.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "dlfl/report/ranking_writer.h"

namespace dlfl::io::detail {

// A position: whole numbers without a decimal point ("3"), halves as "2.5".
std::string format_rank(double position);
// The shortest text that reads back to the same double; kInfiniteScore prints as
// 1.7976931348623157e+308 (a finite number every parser accepts).
std::string format_score(double score);
// "code" / "extrinsic".
std::string_view kind_name(ElementKind kind) noexcept;

// Six significant digits, `max` / `-max` for ±kInfiniteScore: a score for people to read.
std::string readable_score(double score);
// A count (ef, ep, ...): whole numbers without a decimal point, flaky fractions as %g.
std::string readable_count(double count);

// "executed by 23 of 23 failing and 0 of 414 passing tests" for element `e`.
std::string execution_summary(const Counts& counts, std::uint32_t e);
// "passed", "failed", "crashed", "timed out" or "flaky": a test's outcome for people.
std::string_view outcome_text(const TestCase& test) noexcept;
// What the ranked elements are ("line", "function", ...; "element" when unknown).
std::string element_word(const RankingWriteOptions& options);
// "no tie" or "tie 2..4".
std::string tie_text(const RankedElement& r);

// A spectrum's file name as the sarif and github formats write it: '/' separators, and
// relative to `root` when it is an absolute path under it (unchanged otherwise).
std::string report_path(std::string_view file, const std::filesystem::path& root);

// options.counts for a format that needs them; throws dlfl::Error naming the format
// when they are missing or do not match the spectrum.
const Counts& required_counts(const RankingWriteOptions& options, const Spectrum& spectrum,
                              std::string_view format);

// A score as 0..100 between the ranking's lowest and highest finite score (100 for
// kInfiniteScore and above, 0 for −kInfiniteScore and below); rounded to 0.01. When the
// range is empty every element scoring > 0 is 100 and the others 0.
double normalized_score(double score, double lowest, double highest);
// FormulaRanking's score range, or that of its elements when it is not given.
std::pair<double, double> score_range(const FormulaRanking& ranking);

std::unique_ptr<RankingWriter> make_table_ranking_writer();
std::unique_ptr<RankingWriter> make_csv_ranking_writer();
std::unique_ptr<RankingWriter> make_json_ranking_writer();
std::unique_ptr<RankingWriter> make_gzoltar_ranking_writer();
std::unique_ptr<RankingWriter> make_sarif_ranking_writer();
std::unique_ptr<RankingWriter> make_github_ranking_writer();
std::unique_ptr<RankingWriter> make_html_ranking_writer();
std::unique_ptr<RankingWriter> make_llm_json_ranking_writer();
std::unique_ptr<RankingWriter> make_llm_markdown_ranking_writer();

}  // namespace dlfl::io::detail
