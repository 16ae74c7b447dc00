// The LLM context: the ranking's top with source snippets and the failing tests, and the
// size bound (see llm_context.h).
#include "llm_context.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "dlfl/error.h"
#include "ranking_text.h"
#include "source_excerpts.h"
#include "source_tree.h"

namespace dlfl::io::detail {
namespace {

// `text` cut to at most `bytes`, not inside a UTF-8 sequence.
std::string utf8_prefix(const std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  std::size_t end = bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

SourceExcerpt excerpt_of(const std::string& file, const std::vector<std::string>& lines, std::uint32_t first,
                         std::uint32_t last, bool cut) {
  SourceExcerpt e{file, first, {}, cut};
  for (std::uint32_t l = first; l <= last && l <= lines.size(); ++l) e.lines.push_back(lines[l - 1]);
  return e;
}

void add_snippet(ContextElement& c, const Spectrum& spectrum, SourceTree& tree, std::uint32_t context_lines) {
  const auto e = c.ranked.element;
  const auto& element = spectrum.element(e);
  if (element.kind == ElementKind::extrinsic) {
    c.source_note = "an extrinsic condition, not code";
    return;
  }
  const std::string file(spectrum.file(e));
  std::string why;
  const auto* lines = tree.lines(file, why);
  if (lines == nullptr) {
    c.source_note = file + ": " + why;
    return;
  }
  if (element.first_line == 0 || element.first_line > lines->size()) {
    c.source_note = element.first_line == 0 ? "no line to quote" : "the file has fewer lines than the element names";
    return;
  }
  if (const auto s = enclosing_signature(*lines, element.first_line, spectrum.function(e), element.language)) {
    c.signature_line = s->line;
    c.signature = s->text;
  }
  const std::uint32_t last_line = std::max(element.first_line, element.last_line);
  const std::uint32_t first = element.first_line > context_lines ? element.first_line - context_lines : 1;
  std::uint32_t last = last_line + context_lines;
  bool cut = false;
  if (last_line - element.first_line + 1 > kLlmElementLines) {
    last = element.first_line + kLlmElementLines - 1;
    cut = true;
  }
  c.snippet = excerpt_of(file, *lines, first, std::min<std::uint32_t>(last, static_cast<std::uint32_t>(lines->size())), cut);
}

// Where each test is defined: pytest names say their file; GoogleTest names are looked up
// in the files of the spectrum (a test file compiled with coverage is one of them).
class TestFinder {
 public:
  TestFinder(const Spectrum& spectrum, SourceTree& tree) : spectrum_(spectrum), tree_(tree) {}

  void add_source(ContextTest& t) {
    const auto name = parse_test_name(t.test->name);
    if (!name) {
      t.source_note = "the test's name does not say where it is defined";
      return;
    }
    if (!name->file.empty()) {
      std::string why;
      const auto* lines = tree_.lines(name->file, why);
      if (lines == nullptr) t.source_note = name->file + ": " + why;
      else if (!quote(t, name->file, *lines, *name)) t.source_note = "no `def " + name->function + "` in " + name->file;
      return;
    }
    for (const auto& file : files()) {
      std::string why;
      const auto* lines = tree_.lines(file, why);
      if (lines != nullptr && quote(t, file, *lines, *name)) return;
    }
    t.source_note = "not found in the spectrum's files under the source root";
  }

 private:
  static bool quote(ContextTest& t, const std::string& file, const std::vector<std::string>& lines,
                    const TestName& name) {
    const std::uint32_t first = find_test_definition(lines, name);
    if (first == 0) return false;
    bool cut = false;
    const std::uint32_t last = definition_end(lines, first, !name.file.empty(), kLlmTestLines, cut);
    t.source = excerpt_of(file, lines, first, last, cut);
    return true;
  }

  // The spectrum's code files, each once, in name order (deterministic).
  const std::vector<std::string>& files() {
    if (files_.empty()) {
      std::map<std::string, bool> seen;
      for (std::uint32_t e = 0; e < spectrum_.element_count(); ++e)
        if (spectrum_.element(e).kind == ElementKind::code && !spectrum_.file(e).empty())
          seen.emplace(std::string(spectrum_.file(e)), true);
      for (auto& [file, unused] : seen) files_.push_back(file);
    }
    return files_;
  }

  const Spectrum& spectrum_;
  SourceTree& tree_;
  std::vector<std::string> files_;
};

}  // namespace

LlmContext build_llm_context(const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
                             const RankingWriteOptions& options, std::string_view format) {
  if (rankings.size() != 1)
    throw Error(fmt::format("the {} format holds one ranking, got {}: name one formula", format, rankings.size()));
  LlmContext context;
  context.counts = &required_counts(options, spectrum, format);
  context.formula = std::string(rankings[0].formula);
  context.granularity = element_word(options);
  context.tie_rule = options.tie_rule;
  context.elements_total = spectrum.element_count();
  context.tests_total = spectrum.test_count();
  SourceTree tree(options.source_root);
  const auto ranked = rankings[0].ranking;
  for (const auto& r : ranked) {
    ContextElement c{r, std::nullopt, {}, std::nullopt, {}};
    add_snippet(c, spectrum, tree, options.context_lines);
    context.elements.push_back(std::move(c));
  }
  context.last_tie_continues = !ranked.empty() && ranked.back().worst > ranked.size();
  TestFinder finder(spectrum, tree);
  for (const auto& test : spectrum.tests()) {
    if (!test.failed()) continue;
    if (++context.failing_total > kLlmListedTests) continue;
    ContextTest t{&test, utf8_prefix(test.message, kLlmMessageBytes), test.message.size() > kLlmMessageBytes,
                  std::nullopt, {}};
    finder.add_source(t);
    context.tests.push_back(std::move(t));
  }
  return context;
}

std::string cut_note(const ContextCut& cut) {
  if (!cut.any()) return {};
  std::vector<std::string> parts;
  if (const auto n = cut.elements_total - cut.elements_kept)
    parts.push_back(fmt::format("the {} lowest-ranked of {} elements", n, cut.elements_total));
  if (const auto n = cut.test_sources_left_out)
    parts.push_back(fmt::format("the source of {} failing test{}", n, n == 1 ? "" : "s"));
  if (const auto n = cut.tests_total - cut.tests_kept)
    parts.push_back(fmt::format("the last {} of {} failing tests listed", n, cut.tests_total));
  std::string text = fmt::format("Left out to stay within {} bytes: ", cut.max_bytes);
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return text + ".";
}

void write_within(std::ostream& out, const ContextPieces& pieces, std::size_t max_bytes, std::string_view format) {
  ContextCut cut;
  cut.max_bytes = max_bytes;
  cut.elements_total = cut.elements_kept = pieces.elements.size();
  cut.tests_total = cut.tests_kept = pieces.tests.size();
  cut.test_sources_kept = pieces.tests.size();
  // Running sums of the kept pieces; the frame is rendered again for each cut since its
  // note names the numbers.
  std::size_t elements = 0, tests = 0;
  for (const auto& p : pieces.elements) elements += p.size();
  for (const auto& p : pieces.tests) tests += p.size();
  const auto total = [&] {
    return pieces.head(cut).size() + elements + pieces.middle(cut).size() + tests + pieces.tail(cut).size();
  };
  const auto fits = [&] { return max_bytes == 0 || total() <= max_bytes; };
  while (!fits() && cut.elements_kept > 1) elements -= pieces.elements[--cut.elements_kept].size();
  while (!fits() && cut.test_sources_kept > 0) {
    const std::size_t i = --cut.test_sources_kept;
    if (pieces.tests[i].size() == pieces.tests_without_source[i].size()) continue;  // had none
    ++cut.test_sources_left_out;
    tests -= pieces.tests[i].size();
    tests += pieces.tests_without_source[i].size();
  }
  while (!fits() && cut.tests_kept > 0) tests -= pieces.tests_without_source[--cut.tests_kept].size();
  while (!fits() && cut.elements_kept > 0) elements -= pieces.elements[--cut.elements_kept].size();
  if (!fits())
    throw Error(fmt::format("the {} format needs at least {} bytes even without elements and tests; the limit is {}",
                            format, total(), max_bytes));
  out << pieces.head(cut);
  for (std::size_t i = 0; i < cut.elements_kept; ++i) out << pieces.elements[i];
  out << pieces.middle(cut);
  for (std::size_t i = 0; i < cut.tests_kept; ++i)
    out << (i < cut.test_sources_kept ? pieces.tests[i] : pieces.tests_without_source[i]);
  out << pieces.tail(cut);
}

}  // namespace dlfl::io::detail
