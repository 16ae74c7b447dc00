// Ranking as the JSON context of an LLM-based fault localizer (see llm_context.h and
// docs/formats.md): one document, one element or test a line, every string through the
// JSON library.
#include <nlohmann/json.hpp>

#include "llm_context.h"
#include "ranking_text.h"

namespace dlfl::io::detail {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kFormatVersion = 1;

// A position or count: an integer when whole (3, not 3.0); flaky tests make counts
// fractional.
Json number(double value) {
  if (value >= 0.0 && value < 9007199254740992.0 && value == static_cast<double>(static_cast<std::uint64_t>(value)))
    return static_cast<std::uint64_t>(value);
  return value;
}

Json excerpt_json(const SourceExcerpt& s) {
  return {{"file", s.file}, {"first_line", s.first_line}, {"last_line", s.last_line()},
          {"lines", s.lines}, {"cut", s.cut}};
}

// Invalid UTF-8 in the user's names or sources is replaced rather than failing the report.
std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string element_json(const LlmContext& c, const Spectrum& spectrum, const ContextElement& x) {
  const auto& r = x.ranked;
  const auto e = r.element;
  const auto& element = spectrum.element(e);
  const Counts& counts = *c.counts;
  Json j = {
      {"rank", number(r.position(c.tie_rule))},
      {"rank_best", r.best},
      {"rank_worst", r.worst},
      {"tied_elements", r.worst - r.best + 1},
      {"element", spectrum.element_name(e)},
      {"file", spectrum.file(e)},
      {"line", element.first_line == 0 ? Json(nullptr) : Json(element.first_line)},
      {"last_line", element.first_line == 0 ? Json(nullptr) : Json(std::max(element.first_line, element.last_line))},
      {"function", spectrum.function(e)},
      {"kind", kind_name(element.kind)},
      {"language", language_name(element.language)},
      {"score", r.score},
      {"ef", number(counts.ef[e])},
      {"ep", number(counts.ep[e])},
      {"nf", number(counts.nf[e])},
      {"np", number(counts.np[e])},
      {"signature", x.signature.empty() ? Json(nullptr) : Json{{"line", *x.signature_line}, {"text", x.signature}}},
      {"snippet", x.snippet ? excerpt_json(*x.snippet) : Json(nullptr)},
      {"source_note", x.source_note.empty() ? Json(nullptr) : Json(x.source_note)},
  };
  return dump(j);
}

std::string test_json(const ContextTest& t, bool with_source) {
  const bool quoted = with_source && t.source;
  const std::string note = with_source || !t.source ? t.source_note : "left out to stay within the size bound";
  Json j = {
      {"name", t.test->name},
      {"outcome", outcome_text(*t.test)},
      {"failure_weight", t.test->failure_weight},
      {"message", t.message},
      {"message_cut", t.message_cut},
      {"source", quoted ? excerpt_json(*t.source) : Json(nullptr)},
      {"source_note", note.empty() ? Json(nullptr) : Json(note)},
  };
  return dump(j);
}

class LlmJsonRankingWriter final : public RankingWriter {
 public:
  bool uses_counts() const noexcept override { return true; }

  void write(std::ostream& out, const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
             const RankingWriteOptions& options) const override {
    const LlmContext c = build_llm_context(spectrum, rankings, options, "llm-json");
    ContextPieces pieces;
    for (std::size_t i = 0; i < c.elements.size(); ++i)
      pieces.elements.push_back((i == 0 ? "\n" : ",\n") + element_json(c, spectrum, c.elements[i]));
    for (std::size_t i = 0; i < c.tests.size(); ++i) {
      pieces.tests.push_back((i == 0 ? "\n" : ",\n") + test_json(c.tests[i], true));
      pieces.tests_without_source.push_back((i == 0 ? "\n" : ",\n") + test_json(c.tests[i], false));
    }
    pieces.head = [&](const ContextCut& cut) {
      const std::size_t shown = cut.elements_kept;
      Json cut_json = nullptr;
      if (cut.any())
        cut_json = {{"max_bytes", cut.max_bytes},
                    {"elements_left_out", cut.elements_total - cut.elements_kept},
                    {"test_sources_left_out", cut.test_sources_left_out},
                    {"tests_left_out", cut.tests_total - cut.tests_kept},
                    {"note", cut_note(cut)}};
      Json head = {
          {"format", "dlfl-llm-context"},
          {"format_version", kFormatVersion},
          {"tool", "dlfl"},
          {"tool_version", DLFL_VERSION_STRING},
          {"about", "Spectrum-based fault localization: program elements ranked by how strongly their execution "
                    "correlates with failing tests (higher score = more suspicious). Tied elements share the "
                    "positions rank_best..rank_worst; rank is their position under tie_rule."},
          {"formula", c.formula},
          {"tie_rule", tie_rule_name(c.tie_rule)},
          {"granularity", c.granularity},
          {"elements_total", c.elements_total},
          {"elements_shown", shown},
          {"last_tie_continues", shown > 0 && c.elements[shown - 1].ranked.worst > shown},
          {"tests_total", c.tests_total},
          {"failing_tests_total", c.failing_total},
          {"failing_tests_listed", cut.tests_kept},
          {"cut", std::move(cut_json)},
      };
      std::string text = dump(head);
      text.pop_back();  // the closing brace: the lists follow
      return text + ",\"elements\":[";
    };
    pieces.middle = [&](const ContextCut& cut) {
      return std::string(cut.elements_kept ? "\n" : "") + "],\"failing_tests\":[";
    };
    pieces.tail = [&](const ContextCut& cut) { return std::string(cut.tests_kept ? "\n" : "") + "]}\n"; };
    write_within(out, pieces, options.max_bytes, "llm-json");
  }
};

}  // namespace

std::unique_ptr<RankingWriter> make_llm_json_ranking_writer() { return std::make_unique<LlmJsonRankingWriter>(); }

}  // namespace dlfl::io::detail
