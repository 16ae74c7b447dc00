// The context an LLM-based fault localizer is given (AutoFL, AgentFL, LLM4FL): what the
// llm-json and llm-markdown formats both write, built once, and the size bound they share.
// Internal to dlfl_report.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "dlfl/report/ranking_writer.h"

namespace dlfl::io::detail {

// Lines of a file, quoted: 1-based first line, the text of each line.
struct SourceExcerpt {
  std::string file;
  std::uint32_t first_line = 0;
  std::vector<std::string> lines;
  bool cut = false;  // the quoted definition goes on past the last line
  std::uint32_t last_line() const noexcept {
    return first_line + static_cast<std::uint32_t>(lines.size()) - (lines.empty() ? 0 : 1);
  }
};

struct ContextElement {
  RankedElement ranked;
  std::optional<std::uint32_t> signature_line;
  std::string signature;                  // empty when not found
  std::optional<SourceExcerpt> snippet;   // the element's lines with context around
  std::string source_note;                // why there is no snippet
};

struct ContextTest {
  const TestCase* test = nullptr;
  std::string message;  // at most kLlmMessageBytes of it
  bool message_cut = false;
  std::optional<SourceExcerpt> source;  // the test's definition
  std::string source_note;              // why there is none
};

struct LlmContext {
  std::string formula;
  std::string granularity;  // "line", "function", ... ("element" when unknown)
  TieRule tie_rule = TieRule::average;
  std::size_t elements_total = 0, tests_total = 0, failing_total = 0;
  std::vector<ContextElement> elements;  // in rank order
  std::vector<ContextTest> tests;        // the first kLlmListedTests failing tests
  const Counts* counts = nullptr;
  // The last element shown is tied with elements that are not shown.
  bool last_tie_continues = false;
};

inline constexpr std::size_t kLlmListedTests = 20;
inline constexpr std::size_t kLlmMessageBytes = 4096;
inline constexpr std::uint32_t kLlmTestLines = 80;
inline constexpr std::uint32_t kLlmElementLines = 40;

// The context of the one ranking in `rankings` (dlfl::Error naming `format` when there
// are several), the sources read from options.source_root, confined to it.
LlmContext build_llm_context(const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
                             const RankingWriteOptions& options, std::string_view format);

// What --max-bytes left out: the kept prefix of the elements and of the tests, and how
// many of the kept tests keep their source.
struct ContextCut {
  std::size_t max_bytes = 0;  // 0 = no bound
  std::size_t elements_kept = 0, elements_total = 0;
  std::size_t tests_kept = 0, tests_total = 0;
  std::size_t test_sources_kept = 0;      // the first this many kept tests keep their source
  std::size_t test_sources_left_out = 0;  // sources dropped (tests without one not counted)
  bool any() const noexcept {
    return elements_kept < elements_total || tests_kept < tests_total || test_sources_left_out > 0;
  }
};

// One sentence for people and models: "Left out to stay within 4096 bytes: the 3
// lowest-ranked elements, the source of 2 failing tests." (empty when nothing was).
std::string cut_note(const ContextCut& cut);

// A format's rendering in pieces, so that the bound is met by leaving pieces out rather
// than by re-rendering: the frame (head before the elements, middle before the tests,
// tail), each element, each test with and without its source. A piece carries the
// separator before it.
struct ContextPieces {
  std::function<std::string(const ContextCut&)> head, middle, tail;
  std::vector<std::string> elements, tests, tests_without_source;
};

// Writes the pieces within `max_bytes` (0 = all): the lowest-ranked elements are left out
// first (down to the top one), then the tests' sources (last test first), then the tests,
// then the top element. Throws dlfl::Error naming `format` when not even the frame fits.
void write_within(std::ostream& out, const ContextPieces& pieces, std::size_t max_bytes, std::string_view format);

}  // namespace dlfl::io::detail
