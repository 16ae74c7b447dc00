// Formula: a suspiciousness formula over Counts (built-in by name, or a custom
// expression), evaluated over whole arrays.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "dlfl/counts.h"

namespace dlfl {

// Scores that rank: finite everywhere. "+∞" (x/0 with x > 0, the ideal suspect of a
// formula such as DStar) is stored as the largest finite double so it sorts first and
// ties with its equals; see sanitize_scores().
inline constexpr double kInfiniteScore = 1.7976931348623157e308;

struct FormulaInfo {
  std::string_view name;        // canonical name, e.g. "ochiai"
  std::string_view definition;  // e.g. "ef / sqrt((ef+nf)*(ef+ep))"
  std::string_view zero_rule;   // what a zero denominator gives
  std::string_view source;      // paper the formula is taken from
};

class Formula {
 public:
  using Kernel = std::function<Eigen::ArrayXd(const Counts&)>;
  Formula(std::string name, std::string definition, std::string zero_rule, Kernel kernel)
      : name_(std::move(name)), definition_(std::move(definition)),
        zero_rule_(std::move(zero_rule)), kernel_(std::move(kernel)) {}

  const std::string& name() const noexcept { return name_; }
  const std::string& definition() const noexcept { return definition_; }
  const std::string& zero_rule() const noexcept { return zero_rule_; }

  // One score per element, finite (sanitized); never NaN or ±inf. When `undefined` is
  // given it receives the number of NaN scores (e.g. sqrt of a negative in a custom
  // expression), which rank last.
  Eigen::ArrayXd score(const Counts& counts, std::size_t* undefined = nullptr) const;

 private:
  std::string name_, definition_, zero_rule_;
  Kernel kernel_;
};

// The built-in formulas, in listing order (≥ 30, after Naish et al., TOSEM 2011).
std::span<const FormulaInfo> builtin_formulas();

// A formula by (case-insensitive) name, `dstar:N` for DStar with exponent N, or else a
// custom expression over ef, ep, nf, np (see expression.h). Throws dlfl::Error for an
// unknown name or an expression syntax error (the message gives the column).
Formula make_formula(std::string_view name_or_expression);

// Replaces +inf by kInfiniteScore, −inf by −kInfiniteScore and NaN by −kInfiniteScore
// (an undefined score ranks last). Returns how many NaNs were replaced.
std::size_t sanitize_scores(Eigen::ArrayXd& scores) noexcept;

}  // namespace dlfl
