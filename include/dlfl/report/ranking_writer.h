// RankingWriter: one interface, one file per output format (table, csv, json, gzoltar,
// sarif, github, html, llm-json, llm-markdown).
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <ostream>
#include <span>
#include <string_view>
#include <vector>

#include "dlfl/counts.h"
#include "dlfl/ranking.h"
#include "dlfl/spectrum.h"

namespace dlfl::io {

// One formula's ranking over a spectrum's elements. A view: the name and the elements
// must outlive the write call.
struct FormulaRanking {
  std::string_view formula;                // e.g. "ochiai", "dstar:3", or an expression
  std::span<const RankedElement> ranking;  // as returned by dlfl::rank (maybe a top-k)
  // The lowest and highest score of ALL ranked elements, not only of those shown, ±
  // kInfiniteScore left out: what sarif normalizes its 0..100 `rank` against. NaN (the
  // default) = the range of `ranking` itself, right for a full ranking.
  double lowest_score = std::numeric_limits<double>::quiet_NaN();
  double highest_score = std::numeric_limits<double>::quiet_NaN();
};

struct RankingWriteOptions {
  TieRule tie_rule = TieRule::average;  // what the `rank` column reports
  // Add the formula column/field even for a single ranking (the csv format adds it
  // whenever there are several).
  bool always_name_formula = false;
  // csv: add a last `last_line` column (blocks span lines; json always has last_line).
  bool last_line_column = false;
  // ef, ep, nf, np of every element of the spectrum written (compute_counts of it),
  // computed once by the caller. Formats whose uses_counts() is true (sarif, github, html)
  // report them and throw dlfl::Error when this is null; csv and json add them when given
  // (`dlfl rank` gives them), so a ranking file tells which elements some test ran
  // (ef + ep > 0; `dlfl eval --exam-base executed`). Not owned.
  const Counts* counts = nullptr;
  // Where the spectrum's relative file names are rooted. sarif and github write file
  // names relative to it (an absolute name under it is made relative; one outside stays
  // absolute) and sarif records it as the `SRCROOT` originalUriBaseId (absolute, as a
  // file:// URI; left unstated when empty).
  std::filesystem::path source_root = {};
  // "line", "function" or "file": what the elements are, for the formats that say it
  // (sarif's messages); empty = "element".
  std::string_view granularity = {};
  // llm-json / llm-markdown: the most bytes the output may take (0 = no bound); past it
  // the lowest-ranked elements are left out first, and the output says what was.
  std::size_t max_bytes = 0;
  // llm-json / llm-markdown: lines quoted before and after each element.
  std::uint32_t context_lines = 3;
};

// Every format writes, per element: rank (position under the tie rule: best and worst
// are whole numbers, average may be x.5), rank_best and rank_worst (first and last
// position of the element's tie), the element's display name (Spectrum::element_name),
// file, first line, function, kind (code / extrinsic) and score. Whole numbers are
// printed without a decimal point; scores with the shortest text that reads back to the
// same double (so the order is preserved exactly). kInfiniteScore (formula.h, the
// stand-in for +inf) is printed as the finite number 1.7976931348623157e+308 in csv and
// json so every parser accepts it, and as `max` in the table (−kInfiniteScore: `-max`).
//
// Formats:
//   table    for a terminal: per formula a title line `FORMULA (tie rule: RULE, N
//            elements)` then aligned columns rank, best, worst, score, element;
//            extrinsic elements are marked `[extrinsic]`; a blank line between tables.
//   csv      RFC 4180 (fields holding , " or a line break are quoted, "" escapes a
//            quote), '\n' line ends, one header line:
//              [formula,]rank,rank_best,rank_worst,element,file,line,function,kind,score
//                [,last_line][,ef,ep,nf,np]
//            `formula` comes first when several rankings are written (or
//            always_name_formula); `line` is empty when unknown (0); last_line with
//            last_line_column, the counts when `counts` is given.
//   json     one document:
//              {"formulas": [
//                 {"formula": "ochiai", "tie_rule": "average", "elements": [
//                   {"rank": 2.5, "rank_best": 2, "rank_worst": 3, "element": "a.cpp#f:3",
//                    "file": "a.cpp", "line": 3, "last_line": 3, "function": "f",
//                    "kind": "code", "score": 0.5}, ...]}, ...]}
//            plus "ef", "ep", "nf", "np" after "score" when `counts` is given.
//            `line`/`last_line` are null when unknown; strings are "" when absent. One
//            element per line of output, so big rankings stream and grep well.
//   gzoltar  GZoltar's `<formula>.ranking.csv`: header `name;suspiciousness_value`, then
//            `element;score`, in rank order. One ranking only (dlfl::Error otherwise).
//   sarif    SARIF 2.1.0 (OASIS), for GitHub code scanning and SARIF viewers: one run of
//            the tool `dlfl`, one rule per formula (`sbfl/FORMULA`), one result per
//            ranked element that a failing test executed (ef > 0; the others are not
//            suspicious under any formula), in rank order. A result has its location (file
//            relative to SRCROOT, startLine..endLine, the function as a logical location;
//            an extrinsic element has only a logical location), `rank` = the score
//            normalized to 0..100 over FormulaRanking's score range (100 = the most
//            suspicious; kInfiniteScore = 100), `level` warning, the failing tests that
//            executed it as relatedLocations (the first kSarifRelatedTests; their number
//            is in properties), properties formula, score, position, rank_best,
//            rank_worst, tie_rule, ef, ep, nf, np, element, kind, and a partial
//            fingerprint (the element's name) so code scanning follows it across runs.
//   github   GitHub Actions workflow commands, one line per ranked element with ef > 0
//            (and a file): `::warning file=F,line=L,endLine=E,title=T::MESSAGE`, so a
//            workflow step annotates the suspicious lines (GitHub shows 10 per step).
//   html     one self-contained page (inline CSS/JS, no network): run summary (formulas,
//            tie rule, element and test counts), a sortable ranking table per formula,
//            the source of each file read from source_root (when found; at most 64 MB in
//            all) with every element's lines coloured as Tarantula's heatmap (hue from
//            the share of failing vs passing tests that ran it, Jones et al. ICSE 2002)
//            and ef/ep/nf/np and the position on hover, and the tests with their
//            outcomes. Rows and lines render lazily (200 at a time, more on scroll), so
//            10^5 elements stay usable. The page's data is one JSON block,
//            <script type="application/json" id="dlfl-data">.
//   llm-json, llm-markdown
//            the context an LLM-based localizer (AutoFL, AgentFL, LLM4FL) takes, for one
//            formula: the ranked elements with score, tie range, ef/ep/nf/np, the
//            enclosing function's signature and a snippet (context_lines around the
//            element), then the failing tests (the first 20) with their messages (4 KiB
//            each at most) and, where the name tells where it is defined (pytest node
//            ids; GoogleTest names found in the spectrum's files), the test's code.
//            Sources are read only from inside source_root after resolving links (an
//            element elsewhere gets a note instead). Bounded by max_bytes. One JSON
//            document (strings through the JSON library) or Markdown whose code fences are
//            longer than any backtick run of the text they hold. docs/formats.md shows
//            both. Throws dlfl::Error for several rankings or when max_bytes cannot hold
//            the frame.
class RankingWriter {
 public:
  virtual ~RankingWriter() = default;
  // Writes all rankings to `out`. Throws dlfl::Error when the format cannot hold them;
  // stream errors are left in the stream's state for the caller (AtomicFile) to check.
  virtual void write(std::ostream& out, const Spectrum& spectrum,
                     std::span<const FormulaRanking> rankings,
                     const RankingWriteOptions& options) const = 0;
  // True when write() needs RankingWriteOptions::counts.
  virtual bool uses_counts() const noexcept { return false; }
};

// The failing tests a sarif result lists as related locations, at most.
inline constexpr std::size_t kSarifRelatedTests = 100;

// The writer of one of ranking_formats() (case-insensitive); throws dlfl::Error listing
// the valid names otherwise.
std::unique_ptr<RankingWriter> make_ranking_writer(std::string_view format);

// The format names make_ranking_writer accepts, in the order --help lists them: the one
// list of them, which the CLI's --format choices read.
std::span<const std::string_view> ranking_formats() noexcept;

}  // namespace dlfl::io
