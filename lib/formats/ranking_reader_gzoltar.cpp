// Reads GZoltar's `<formula>.ranking.csv`: header `name;suspiciousness_value`, then
// `name;score` a line.
#include <algorithm>
#include <cctype>

#include "dlfl/csv_field.h"
#include "dlfl/error.h"
#include "gzoltar_text.h"
#include "ranking_reader_text.h"

namespace dlfl::io::detail {

std::vector<ReadRanking> parse_gzoltar_ranking(std::string_view text, const std::string& source) {
  LineReader lines(text);
  std::string_view line;
  bool header = false;
  ReadRanking ranking;  // the formula comes from the file name (read_rankings)
  while (lines.next(line)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    check_field_size(line.size(), "line", source, lines.line_number());
    if (!header) {
      std::string h(line);
      std::transform(h.begin(), h.end(), h.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (h != "name;suspiciousness_value")
        throw Error(source, lines.line_number(),
                    "expected the GZoltar ranking header 'name;suspiciousness_value'");
      header = true;
      continue;
    }
    // The score follows the last ';': Java parameter lists never hold one, but take no
    // chances with C++ names.
    const auto semicolon = line.rfind(';');
    if (semicolon == std::string_view::npos)
      throw Error(source, lines.line_number(), "expected 'name;suspiciousness_value'");
    // One leading ' is dlfl's guard against spreadsheet formulas (csv_field.h).
    const std::string_view name = without_formula_guard(line.substr(0, semicolon));
    if (name.empty()) throw Error(source, lines.line_number(), "empty element name");
    ScoredElement e = element_from_name(name);
    e.score = parse_score_field(line.substr(semicolon + 1), source, lines.line_number());
    ranking.elements.push_back(std::move(e));
  }
  if (!header) throw Error(source, 0, "empty file: no GZoltar ranking header");
  return {std::move(ranking)};
}

}  // namespace dlfl::io::detail
