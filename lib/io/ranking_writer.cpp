// RankingWriter factory and the number formatting every ranking format shares.
#include "dlfl/io/ranking_writer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <string>

#include "dlfl/error.h"
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

}  // namespace detail

namespace {
constexpr std::array<std::string_view, 4> kFormats = {"table", "csv", "json", "gzoltar"};
}  // namespace

std::span<const std::string_view> ranking_formats() noexcept { return kFormats; }

std::string_view tie_rule_name(TieRule rule) noexcept {
  switch (rule) {
    case TieRule::best: return "best";
    case TieRule::worst: return "worst";
    case TieRule::average: return "average";
  }
  return "average";
}

std::unique_ptr<RankingWriter> make_ranking_writer(std::string_view format) {
  std::string lower(format);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "table") return detail::make_table_ranking_writer();
  if (lower == "csv") return detail::make_csv_ranking_writer();
  if (lower == "json") return detail::make_json_ranking_writer();
  if (lower == "gzoltar") return detail::make_gzoltar_ranking_writer();
  throw Error("unknown ranking format '" + std::string(format) +
              "' (expected table, csv, json or gzoltar)");
}

}  // namespace dlfl::io
