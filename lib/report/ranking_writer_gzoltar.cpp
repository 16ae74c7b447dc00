// Ranking in GZoltar's `<formula>.ranking.csv` form: `name;suspiciousness_value`.
#include "dlfl/csv_field.h"
#include "dlfl/error.h"
#include "ranking_text.h"

namespace dlfl::io::detail {
namespace {

class GzoltarRankingWriter final : public RankingWriter {
 public:
  void write(std::ostream& out, const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
             const RankingWriteOptions&) const override {
    // The file name carries the formula in GZoltar's layout, so a file holds one ranking.
    if (rankings.size() != 1)
      throw Error("the gzoltar ranking format holds exactly one formula, not " +
                  std::to_string(rankings.size()));
    out << "name;suspiciousness_value\n";
    // A spreadsheet opens this too: a name it would take for a formula gets the leading '
    // every dlfl CSV writer gives it (csv_field.h), which the readers take away again.
    for (const auto& r : rankings[0].ranking) {
      const std::string name = spectrum.element_name(r.element);
      if (name.find_first_of("\r\n") != std::string::npos)
        throw Error("element '" + excerpt(name) +
                    "' has a line break in its name, which the gzoltar ranking format cannot hold (use csv or json)");
      out << (needs_formula_guard(name) ? "'" : "") << name << ';' << format_score(r.score) << '\n';
    }
  }
};

}  // namespace

std::unique_ptr<RankingWriter> make_gzoltar_ranking_writer() {
  return std::make_unique<GzoltarRankingWriter>();
}

}  // namespace dlfl::io::detail
