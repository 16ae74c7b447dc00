// Formula: lookup of built-in formulas by name, custom expressions, score sanitizing.
#include "dlfl/formula.h"

#include <algorithm>
#include <charconv>
#include <bit>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/expression.h"
#include "formula_table.h"

namespace dlfl {
namespace {

// "Russell-Rao", "russell_rao" and "RussellRao" name the same formula.
std::string normalized(std::string_view name) {
  std::string out;
  for (char ch : name)
    if (ch != '-' && ch != '_' && ch != ' ')
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  return out;
}

bool is_plain_name(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == ':';
  });
}

std::string list_hint() { return " (`dlfl formulas` lists the names)"; }

}  // namespace

Eigen::ArrayXd Formula::score(const Counts& counts, std::size_t* undefined) const {
  Eigen::ArrayXd scores = kernel_(counts);
  const std::size_t nans = sanitize_scores(scores);
  if (undefined) *undefined = nans;
  return scores;
}

std::span<const FormulaInfo> builtin_formulas() {
  static const std::vector<FormulaInfo> infos = [] {
    std::vector<FormulaInfo> out;
    for (const auto& f : detail::builtin_formula_table()) out.push_back(f.info);
    return out;
  }();
  return infos;
}

Formula make_formula(std::string_view text) {
  const std::string key = normalized(text);
  for (const auto& f : detail::builtin_formula_table())
    if (normalized(f.info.name) == key)
      return Formula(std::string(f.info.name), std::string(f.info.definition),
                     std::string(f.info.zero_rule), f.kernel);
  if (key == "dstar" || key == "d*") return make_formula("dstar2");
  if (key == "naish1") return make_formula("op1");
  if (key == "naish2") return make_formula("op2");
  if (key.starts_with("dstar:")) {
    const std::string_view digits = std::string_view(key).substr(6);
    double star = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), star);
    if (ec != std::errc() || end != digits.data() + digits.size() || !(star > 0) || star > 64)
      throw Error("formula '" + excerpt(text) + "': the DStar exponent must be a number in (0, 64]");
    return Formula("dstar:" + std::string(digits), "ef^" + std::string(digits) + " / (ep+nf)",
                   "x/0 = +inf (ranks first) for x > 0, 0 for x = 0",
                   [star](const Counts& c) { return detail::dstar(c, star); });
  }
  // Not a name: a custom expression. Text that could be a name (letters, digits, '-',
  // '_', ':') and does not parse is more likely a typo of a formula name than an
  // expression, so say that instead of "unknown variable"; `ef-1` parses and is one.
  std::optional<Expression> parsed;
  try {
    parsed = Expression::parse(text);
  } catch (const Error&) {
    if (is_plain_name(text)) throw Error("unknown formula '" + excerpt(text) + "'" + list_hint());
    throw;
  }
  Expression expression = std::move(*parsed);
  return Formula(std::string(text), std::string(text), "IEEE: x/0 = +inf, 0/0 ranks last",
                 [expression](const Counts& c) { return expression.evaluate(c); });
}

std::size_t sanitize_scores(Eigen::ArrayXd& scores) noexcept {
  // Usually every score is finite: that is checked first with integer arithmetic, which
  // vectorizes (a floating comparison may trap, so it does not): an exponent of all ones
  // (inf, NaN) plus one carries into bit 63, any other does not.
  constexpr std::uint64_t kExponent = 0x7FF0000000000000ull, kExponentOne = 1ull << 52;
  const double* data = scores.data();
  std::uint64_t carried = 0;
  for (Eigen::Index i = 0; i < scores.size(); ++i)
    carried |= (std::bit_cast<std::uint64_t>(data[i]) & kExponent) + kExponentOne;
  std::size_t nans = 0;
  if (!(carried >> 63)) return nans;
  for (auto& s : scores) {
    if (std::isnan(s)) {
      s = -kInfiniteScore;
      ++nans;
    } else if (std::isinf(s)) {
      s = s > 0 ? kInfiniteScore : -kInfiniteScore;
    }
  }
  return nans;
}

}  // namespace dlfl
