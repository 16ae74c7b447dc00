// Ranking as aligned text tables for a terminal, one per formula.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "dlfl/formula.h"
#include "dlfl/printable.h"
#include "ranking_text.h"

namespace dlfl::io::detail {
namespace {

// True when the spectrum's code is in more than one language (Python and C++ ranked
// together): the table then tags each code line with its language.
bool mixed_languages(const Spectrum& spectrum) {
  std::optional<Language> seen;
  for (const ElementRecord& e : spectrum.elements()) {
    if (e.kind != ElementKind::code) continue;
    if (!seen) seen = e.language;
    else if (*seen != e.language) return true;
  }
  return false;
}

class TableRankingWriter final : public RankingWriter {
 public:
  void write(std::ostream& out, const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
             const RankingWriteOptions& options) const override {
    const bool tag_languages = mixed_languages(spectrum);
    for (std::size_t f = 0; f < rankings.size(); ++f) {
      const auto& ranking = rankings[f];
      if (f > 0) out << '\n';
      const std::size_t shown = ranking.ranking.size();
      const std::size_t total = spectrum.element_count();
      out << fmt::format("{} (tie rule: {}, {})\n", printable(ranking.formula), tie_rule_name(options.tie_rule),
                         shown < total ? fmt::format("top {} of {} elements", shown, total)
                                       : fmt::format("{} elements", shown));
      if (shown == 0) continue;

      std::vector<std::string> ranks, scores;
      ranks.reserve(shown);
      scores.reserve(shown);
      std::size_t rank_w = 4, best_w = 4, worst_w = 5, score_w = 5;  // at least the headers
      for (const auto& r : ranking.ranking) {
        ranks.push_back(format_rank(r.position(options.tie_rule)));
        scores.push_back(readable_score(r.score));
        rank_w = std::max(rank_w, ranks.back().size());
        score_w = std::max(score_w, scores.back().size());
        best_w = std::max(best_w, fmt::formatted_size("{}", r.best));
        worst_w = std::max(worst_w, fmt::formatted_size("{}", r.worst));
      }
      out << fmt::format("{:>{}}  {:>{}}  {:>{}}  {:<{}}  {}\n", "rank", rank_w, "best", best_w,
                         "worst", worst_w, "score", score_w, "element");
      fmt::memory_buffer line;
      for (std::size_t i = 0; i < shown; ++i) {
        const auto& r = ranking.ranking[i];
        line.clear();
        fmt::format_to(std::back_inserter(line), "{:>{}}  {:>{}}  {:>{}}  {:<{}}  ", ranks[i], rank_w,
                       r.best, best_w, r.worst, worst_w, scores[i], score_w);
        const ElementRecord& element = spectrum.element(r.element);
        if (element.kind == ElementKind::extrinsic) line.append(std::string_view("[extrinsic] "));
        else if (tag_languages) fmt::format_to(std::back_inserter(line), "[{}] ", language_name(element.language));
        // Names come from the user's code base: a newline or an escape sequence in one
        // must not forge rows or reach the terminal.
        const std::string name = printable(spectrum.element_name(r.element));
        line.append(name);
        line.push_back('\n');
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
      }
    }
  }
};

}  // namespace

std::unique_ptr<RankingWriter> make_table_ranking_writer() {
  return std::make_unique<TableRankingWriter>();
}

}  // namespace dlfl::io::detail
