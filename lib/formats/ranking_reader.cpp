// Ranking readers: format detection, dispatch, element names and number fields.
#include "dlfl/formats/ranking_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "dlfl/error.h"
#include "dlfl/files/text_file.h"
#include "gzoltar_text.h"
#include "ranking_reader_text.h"

namespace dlfl::io {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view text) noexcept {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

constexpr std::string_view kGzoltarSuffix = ".ranking.csv";

}  // namespace

namespace detail {

double parse_score_field(std::string_view field, const std::string& source, std::size_t line) {
  const std::string_view text = trim(field);
  double value = 0.0;
  // from_chars takes no leading '+', which some writers put on exponents only, so allow it.
  const std::string_view digits = !text.empty() && text[0] == '+' ? text.substr(1) : text;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec == std::errc::invalid_argument || end != digits.data() + digits.size())
    throw Error(source, line, "score '" + excerpt(field) + "' is not a number");
  // Out of range: a decimal beyond double's range is ±inf in spirit; from_chars leaves the
  // value untouched then, so say so rather than score it 0.
  if (ec == std::errc::result_out_of_range)
    throw Error(source, line, "score '" + excerpt(field) + "' is out of range for a double");
  return value;
}

std::uint32_t parse_line_field(std::string_view field, const std::string& source,
                               std::size_t line) {
  const std::string_view text = trim(field);
  if (text.empty()) return 0;
  std::uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0)
    throw Error(source, line, "line '" + excerpt(field) + "' is not a positive line number");
  return value;
}

}  // namespace detail

std::optional<RankingFileFormat> parse_ranking_file_format(std::string_view name) noexcept {
  std::string text;
  try {
    text = lower(name);
  } catch (...) {
    return std::nullopt;
  }
  if (text == "csv") return RankingFileFormat::csv;
  if (text == "json") return RankingFileFormat::json;
  if (text == "gzoltar") return RankingFileFormat::gzoltar;
  return std::nullopt;
}

RankingFileFormat detect_ranking_format(std::string_view text, const std::string& source_name) {
  text = without_bom(text);
  const std::string_view body = trim(text);
  if (body.starts_with('{')) return RankingFileFormat::json;
  const std::string header = lower(trim(body.substr(0, body.find('\n'))));
  if (header == "name;suspiciousness_value") return RankingFileFormat::gzoltar;
  std::vector<std::string> fields;
  const std::string_view first_line = body.substr(0, body.find('\n'));
  detail::CsvRecordReader reader(first_line, source_name);
  if (!body.empty() && reader.next(fields)) {
    for (auto& f : fields) f = lower(trim(f));
    const auto has = [&](std::string_view column) {
      return std::find(fields.begin(), fields.end(), column) != fields.end();
    };
    if (has("element") && has("score")) return RankingFileFormat::csv;
  }
  throw Error(source_name, 1,
              "not a ranking file: expected dlfl's CSV header (...,element,...,score), "
              "GZoltar's 'name;suspiciousness_value' or a JSON object");
}

std::vector<ReadRanking> parse_rankings(std::string_view text, RankingFileFormat format,
                                        const std::string& source_name) {
  text = without_bom(text);
  std::vector<ReadRanking> rankings;
  switch (format) {
    case RankingFileFormat::csv: rankings = detail::parse_csv_rankings(text, source_name); break;
    case RankingFileFormat::json: rankings = detail::parse_json_rankings(text, source_name); break;
    case RankingFileFormat::gzoltar:
      rankings = detail::parse_gzoltar_ranking(text, source_name);
      break;
  }
  const bool any = std::any_of(rankings.begin(), rankings.end(),
                               [](const ReadRanking& r) { return !r.elements.empty(); });
  if (!any) throw Error(source_name, 0, "the ranking holds no element");
  return rankings;
}

std::vector<ReadRanking> read_rankings(const std::filesystem::path& path,
                                       std::optional<RankingFileFormat> format) {
  const std::string source = path.string();
  // The format is told from the start of the file, before the rest is read: a file that
  // is no ranking is refused after a bounded read, whatever its size.
  const std::string text = detail::read_text_file(path, [&](std::string_view start) {
    if (!format) (void)detect_ranking_format(start, source);
  });
  const RankingFileFormat chosen = format ? *format : detect_ranking_format(text, source);
  std::vector<ReadRanking> rankings = parse_rankings(text, chosen, source);
  // GZoltar's layout names the formula by the file: ochiai.ranking.csv.
  if (chosen == RankingFileFormat::gzoltar && rankings.size() == 1 && rankings[0].formula.empty()) {
    const std::string name = path.filename().string();
    rankings[0].formula = name.ends_with(kGzoltarSuffix)
                              ? name.substr(0, name.size() - kGzoltarSuffix.size())
                              : path.stem().string();
  }
  return rankings;
}

ScoredElement element_from_name(std::string_view name) {
  ScoredElement e;
  e.key = std::string(name);
  std::string_view rest = name;
  if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    const std::string_view digits = rest.substr(colon + 1);
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (!digits.empty() && ec == std::errc() && end == digits.data() + digits.size()) {
      e.first_line = value;
      rest = rest.substr(0, colon);
    }
  }
  std::string_view file = rest, function;
  if (const auto hash = rest.find('#'); hash != std::string_view::npos) {
    file = rest.substr(0, hash);
    function = rest.substr(hash + 1);
  }
  const bool java = file.find('$') != std::string_view::npos &&
                    file.find_first_of("/\\") == std::string_view::npos;
  if (!java) {
    e.file = std::string(file);
    e.function = std::string(function);
    return e;
  }
  // `org.pkg$Outer$Inner`: package, then the class chain; the outer class names the file.
  const auto dollar = file.find('$');
  std::string package(file.substr(0, dollar));
  std::replace(package.begin(), package.end(), '.', '/');
  std::string classes(file.substr(dollar + 1));
  const std::string outer = classes.substr(0, classes.find('$'));
  e.file = (package.empty() ? "" : package + "/") + outer + ".java";
  std::replace(classes.begin(), classes.end(), '$', '.');
  // A class-level name (no method) stays a whole-class element: a file, not a function.
  if (!function.empty()) e.function = classes + "." + std::string(function);
  return e;
}

}  // namespace dlfl::io
