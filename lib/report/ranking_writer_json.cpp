// Ranking as JSON: {"formulas": [{"formula", "tie_rule", "elements": [...]}]}, one element a line.
#include <nlohmann/json.hpp>

#include "dlfl/counts.h"
#include "ranking_text.h"

namespace dlfl::io::detail {
namespace {

// A position (or a count) as a JSON number: an integer when whole, so consumers see 3,
// not 3.0.
nlohmann::json rank_value(double position) {
  if (position == static_cast<double>(static_cast<std::uint64_t>(position)))
    return static_cast<std::uint64_t>(position);
  return position;
}

nlohmann::json line_value(std::uint32_t line) {
  return line == 0 ? nlohmann::json(nullptr) : nlohmann::json(line);
}

class JsonRankingWriter final : public RankingWriter {
 public:
  void write(std::ostream& out, const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
             const RankingWriteOptions& options) const override {
    // Streamed object by object rather than built as one DOM: a ranking of millions of
    // elements would otherwise need gigabytes.
    out << "{\"formulas\":[";
    const std::string tie_rule = nlohmann::json(tie_rule_name(options.tie_rule)).dump();
    for (std::size_t f = 0; f < rankings.size(); ++f) {
      const auto& ranking = rankings[f];
      out << (f == 0 ? "\n" : ",\n") << "{\"formula\":" << nlohmann::json(ranking.formula).dump()
          << ",\"tie_rule\":" << tie_rule << ",\"elements\":[";
      for (std::size_t i = 0; i < ranking.ranking.size(); ++i) {
        const auto& r = ranking.ranking[i];
        const auto& e = spectrum.element(r.element);
        nlohmann::ordered_json element = {
            {"rank", rank_value(r.position(options.tie_rule))},
            {"rank_best", r.best},
            {"rank_worst", r.worst},
            {"element", spectrum.element_name(r.element)},
            {"file", spectrum.file(r.element)},
            {"line", line_value(e.first_line)},
            {"last_line", line_value(e.last_line)},
            {"function", spectrum.function(r.element)},
            {"kind", kind_name(e.kind)},
            {"language", language_name(e.language)},
            {"score", r.score},
        };
        if (const Counts* counts = options.counts) {
          const auto e_index = static_cast<Eigen::Index>(r.element);
          element["ef"] = rank_value(counts->ef[e_index]);
          element["ep"] = rank_value(counts->ep[e_index]);
          element["nf"] = rank_value(counts->nf[e_index]);
          element["np"] = rank_value(counts->np[e_index]);
        }
        // Invalid UTF-8 in a name is replaced rather than aborting the whole report.
        out << (i == 0 ? "\n" : ",\n")
            << element.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      }
      out << "\n]}";
    }
    out << "\n]}\n";
  }
};

}  // namespace

std::unique_ptr<RankingWriter> make_json_ranking_writer() { return std::make_unique<JsonRankingWriter>(); }

}  // namespace dlfl::io::detail
