// Ranking as GitHub Actions workflow commands (`::warning file=...,line=...::...`), so a
// workflow step that runs `dlfl rank --format github` annotates the suspicious lines.
#include <fmt/format.h>

#include "dlfl/printable.h"
#include "ranking_text.h"

namespace dlfl::io::detail {
namespace {

// GitHub's escaping of workflow command data: '%', CR and LF (and, in properties, ':'
// and ','), as its toolkit's `escapeData` / `escapeProperty` do; before that, control
// characters of the user's names (ESC, ...) made printable, so nothing in a name can
// recolour the log or start a line of its own.
std::string escape(std::string_view text, bool property) {
  std::string out;
  for (const char c : printable(text)) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

// What the annotation is about: "Function f", "File a.cpp", "Line 19 in f", "Lines 3-5".
std::string subject(const Spectrum& spectrum, std::uint32_t e, std::string_view what) {
  const auto& element = spectrum.element(e);
  const std::string_view function = spectrum.function(e);
  if (what == "function" && !function.empty()) return fmt::format("Function {}", function);
  if (what == "file") return fmt::format("File {}", spectrum.file(e));
  std::string text = element.last_line > element.first_line
                         ? fmt::format("Lines {}-{}", element.first_line, element.last_line)
                         : fmt::format("Line {}", element.first_line);
  if (!function.empty()) text += fmt::format(" in {}", function);
  return text;
}

class GithubRankingWriter final : public RankingWriter {
 public:
  bool uses_counts() const noexcept override { return true; }

  void write(std::ostream& out, const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
             const RankingWriteOptions& options) const override {
    const Counts& counts = required_counts(options, spectrum, "github");
    const std::string what = element_word(options);
    for (const auto& ranking : rankings) {
      for (const auto& r : ranking.ranking) {
        const auto e = r.element;
        const auto& element = spectrum.element(e);
        // An annotation needs a file; one no failing test executed is not suspicious.
        if (element.kind != ElementKind::code || spectrum.file(e).empty() || !(counts.ef[e] > 0.0)) continue;
        const std::string position = format_rank(r.position(options.tie_rule));
        std::string properties = "file=" + escape(report_path(spectrum.file(e), options.source_root), true);
        if (element.first_line > 0)
          properties += fmt::format(",line={},endLine={}", element.first_line,
                                    std::max(element.first_line, element.last_line));
        properties += ",title=" + escape(fmt::format("dlfl: suspicious {} #{} ({})", what, position, ranking.formula), true);
        const std::string message =
            fmt::format("{} ranks {} of {} under {} ({}; {} tie rule), score {}: {}.", subject(spectrum, e, what),
                        position, spectrum.element_count(), ranking.formula, tie_text(r),
                        tie_rule_name(options.tie_rule), readable_score(r.score), execution_summary(counts, e));
        out << "::warning " << properties << "::" << escape(message, false) << '\n';
      }
    }
  }
};

}  // namespace

std::unique_ptr<RankingWriter> make_github_ranking_writer() { return std::make_unique<GithubRankingWriter>(); }

}  // namespace dlfl::io::detail
