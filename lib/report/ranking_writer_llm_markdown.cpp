// Ranking as the Markdown context of an LLM-based fault localizer (see llm_context.h and
// docs/formats.md): a prompt-ready page. Text from the user's code base is either in a
// code span or a fenced block whose fence is longer than any backtick run inside it
// (CommonMark), so no name, message or source line can end it and pose as dlfl's text.
#include <fmt/format.h>

#include <algorithm>

#include "dlfl/printable.h"
#include "llm_context.h"
#include "ranking_text.h"

namespace dlfl::io::detail {
namespace {

std::size_t longest_backtick_run(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

// One line of code or message for a fenced block: control characters made visible as
// printable() does (ESC, CR, ...), tabs kept.
std::string block_line(std::string_view line) {
  std::string out;
  for (std::size_t start = 0;;) {
    const auto tab = line.find('\t', start);
    out += printable(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return out;
    out += '\t';
    start = tab + 1;
  }
}

// `text` as an inline code span, on one line.
std::string code(std::string_view text) {
  const std::string body = printable(text);
  const std::string fence(longest_backtick_run(body) + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

// `lines` as a fenced block with `info` (the language), fenced beyond its backtick runs.
std::string fenced(const std::vector<std::string>& lines, std::string_view info) {
  std::size_t longest = 2;
  for (const auto& line : lines) longest = std::max(longest, longest_backtick_run(line));
  const std::string fence(longest + 1, '`');
  std::string out = fence + std::string(info) + "\n";
  for (const auto& line : lines) out += line + "\n";
  return out + fence + "\n";
}

std::string_view info_string(Language language) {
  switch (language) {
    case Language::c: return "c";
    case Language::cpp: return "cpp";
    case Language::cuda: return "cuda";
    case Language::python: return "python";
    default: return "";
  }
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  for (std::size_t start = 0; start <= text.size();) {
    const auto end = std::min(text.find('\n', start), text.size());
    lines.push_back(block_line(text.substr(start, end - start)));
    start = end + 1;
  }
  return lines;
}

// Source lines numbered, those of [mark_first, mark_last] marked with `>`.
std::vector<std::string> numbered(const SourceExcerpt& s, std::uint32_t mark_first, std::uint32_t mark_last) {
  const std::size_t width = std::to_string(s.last_line()).size();
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < s.lines.size(); ++i) {
    const auto number = s.first_line + static_cast<std::uint32_t>(i);
    const bool marked = number >= mark_first && number <= mark_last;
    lines.push_back(fmt::format("{} {:>{}} | {}", marked ? '>' : ' ', number, width, block_line(s.lines[i])));
  }
  if (s.cut) lines.push_back("  ... (cut)");
  return lines;
}

std::string element_markdown(const LlmContext& c, const Spectrum& spectrum, const ContextElement& x) {
  const auto& r = x.ranked;
  const auto e = r.element;
  const auto& element = spectrum.element(e);
  std::string where = element.kind == ElementKind::extrinsic ? code(spectrum.element_name(e))
                      : element.first_line == 0
                          ? code(spectrum.file(e))
                          : code(fmt::format("{}:{}", spectrum.file(e), element.first_line) +
                                 (element.last_line > element.first_line ? fmt::format("-{}", element.last_line) : ""));
  if (!spectrum.function(e).empty()) where += " in " + code(spectrum.function(e));
  std::string text = fmt::format("\n### {}. {}\n\n", format_rank(r.position(c.tie_rule)), where);
  text += fmt::format("- score {} ({}), {}\n", readable_score(r.score),
                      r.best == r.worst ? std::string("no tie")
                                        : fmt::format("tied at positions {}..{} with {} other elements", r.best,
                                                      r.worst, r.worst - r.best),
                      execution_summary(*c.counts, e));
  if (!x.signature.empty())
    text += fmt::format("- in the function at line {}:\n\n{}", *x.signature_line,
                        fenced(split_lines(x.signature), info_string(element.language)));
  if (x.snippet) {
    const auto first = std::max<std::uint32_t>(element.first_line, 1);
    text += fmt::format("\n{} lines {}-{} (`>` marks the element):\n\n{}", code(x.snippet->file),
                        x.snippet->first_line, x.snippet->last_line(),
                        fenced(numbered(*x.snippet, first, std::max(first, element.last_line)),
                               info_string(element.language)));
  } else {
    text += "- source not quoted: " + block_line(x.source_note) + "\n";
  }
  return text;
}

std::string test_markdown(const ContextTest& t, bool with_source) {
  std::string text = fmt::format("\n### {} ({})\n\n", code(t.test->name), outcome_text(*t.test));
  if (t.message.empty()) text += "No message recorded.\n";
  else
    text += fmt::format("Message{}:\n\n{}", t.message_cut ? fmt::format(" (its first {} bytes)", kLlmMessageBytes) : "",
                        fenced(split_lines(t.message), "text"));
  if (with_source && t.source) {
    const Language language = language_of_path(t.source->file);
    text += fmt::format("\nTest code, {} lines {}-{}:\n\n{}", code(t.source->file), t.source->first_line,
                        t.source->last_line(), fenced(numbered(*t.source, 0, 0), info_string(language)));
  } else if (t.source) {
    text += "\nTest code left out to stay within the size bound.\n";
  } else if (!t.source_note.empty()) {
    text += "\nTest code not quoted: " + block_line(t.source_note) + "\n";
  }
  return text;
}

class LlmMarkdownRankingWriter final : public RankingWriter {
 public:
  bool uses_counts() const noexcept override { return true; }

  void write(std::ostream& out, const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
             const RankingWriteOptions& options) const override {
    const LlmContext c = build_llm_context(spectrum, rankings, options, "llm-markdown");
    ContextPieces pieces;
    for (const auto& x : c.elements) pieces.elements.push_back(element_markdown(c, spectrum, x));
    for (const auto& t : c.tests) {
      pieces.tests.push_back(test_markdown(t, true));
      pieces.tests_without_source.push_back(test_markdown(t, false));
    }
    pieces.head = [&](const ContextCut& cut) {
      const std::size_t shown = cut.elements_kept;
      std::string text = fmt::format(
          "# Fault localization context\n\n"
          "dlfl {} ranked the {} {}s of the program by how strongly their execution correlates with the failing "
          "tests, under the formula {}: the higher the score, the more suspicious. Elements with equal scores are "
          "tied: they share the positions best..worst, and the number before each is its position under the "
          "{} tie rule. {} of {} tests fail.\n",
          DLFL_VERSION_STRING, c.elements_total, c.granularity, code(c.formula), tie_rule_name(c.tie_rule),
          c.failing_total, c.tests_total);
      if (cut.any()) text += "\n" + cut_note(cut) + "\n";
      text += fmt::format("\n## The {} most suspicious {}s\n", shown, c.granularity);
      if (shown > 0 && c.elements[shown - 1].ranked.worst > shown)
        text += fmt::format("\nThe last tie goes on past them, to position {}.\n", c.elements[shown - 1].ranked.worst);
      return text;
    };
    pieces.middle = [&](const ContextCut& cut) {
      return fmt::format("\n## Failing tests{}\n", c.failing_total > cut.tests_kept
                                                       ? fmt::format(" (the first {} of {})", cut.tests_kept, c.failing_total)
                                                       : std::string());
    };
    pieces.tail = [](const ContextCut&) { return std::string(); };
    write_within(out, pieces, options.max_bytes, "llm-markdown");
  }
};

}  // namespace

std::unique_ptr<RankingWriter> make_llm_markdown_ranking_writer() {
  return std::make_unique<LlmMarkdownRankingWriter>();
}

}  // namespace dlfl::io::detail
