// Ranking as CSV (RFC 4180): one row per ranked element, formula column when several.
#include <fmt/format.h>

#include <iterator>

#include "dlfl/counts.h"
#include "dlfl/csv_field.h"
#include "ranking_text.h"

namespace dlfl::io::detail {
namespace {

class CsvRankingWriter final : public RankingWriter {
 public:
  void write(std::ostream& out, const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
             const RankingWriteOptions& options) const override {
    const bool name_formula = options.always_name_formula || rankings.size() > 1;
    if (name_formula) out << "formula,";
    const bool spans = options.last_line_column;
    const Counts* counts = options.counts;
    out << "rank,rank_best,rank_worst,element,file,line,function,kind,language,score" << (spans ? ",last_line" : "")
        << (counts ? ",ef,ep,nf,np\n" : "\n");
    fmt::memory_buffer line;
    for (const auto& ranking : rankings) {
      for (const auto& r : ranking.ranking) {
        const auto& e = spectrum.element(r.element);
        line.clear();
        if (name_formula) {
          append_csv_field(line, ranking.formula);
          line.push_back(',');
        }
        fmt::format_to(std::back_inserter(line), "{},{},{},", format_rank(r.position(options.tie_rule)),
                       r.best, r.worst);
        append_csv_field(line, spectrum.element_name(r.element));
        line.push_back(',');
        append_csv_field(line, spectrum.file(r.element));
        line.push_back(',');
        if (e.first_line != 0) fmt::format_to(std::back_inserter(line), "{}", e.first_line);
        line.push_back(',');
        append_csv_field(line, spectrum.function(r.element));
        fmt::format_to(std::back_inserter(line), ",{},{},{}", kind_name(e.kind), language_name(e.language),
                       format_score(r.score));
        if (spans && e.last_line != 0) fmt::format_to(std::back_inserter(line), ",{}", e.last_line);
        else if (spans) line.push_back(',');
        if (counts) {
          const auto e_index = static_cast<Eigen::Index>(r.element);
          fmt::format_to(std::back_inserter(line), ",{},{},{},{}", counts->ef[e_index], counts->ep[e_index],
                         counts->nf[e_index], counts->np[e_index]);
        }
        line.push_back('\n');
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
      }
    }
  }
};

}  // namespace

std::unique_ptr<RankingWriter> make_csv_ranking_writer() { return std::make_unique<CsvRankingWriter>(); }

}  // namespace dlfl::io::detail
