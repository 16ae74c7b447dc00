// Ranking readers: a ranking file (dlfl's CSV or JSON, GZoltar's `<formula>.ranking.csv`)
// read back into ScoredElements, the shape `dlfl eval` scores against the ground truth.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/scored_element.h"

namespace dlfl::io {

enum class RankingFileFormat {
  csv,      // dlfl's CSV: [formula,]rank,rank_best,rank_worst,element,file,line,function,kind,score
  json,     // dlfl's JSON: {"formulas": [{"formula", "tie_rule", "elements": [...]}]}
  gzoltar,  // GZoltar's `<formula>.ranking.csv`: header `name;suspiciousness_value`
};

// One formula's ranking as the file holds it.
struct ReadRanking {
  // The formula's name: the CSV `formula` column, the JSON `formula` member, or GZoltar's
  // file name without `.ranking.csv`; empty when the file does not say (a single-formula
  // CSV, or text parsed without a file name).
  std::string formula;
  // In file order (rank order for files dlfl or GZoltar wrote). Each element owns its
  // strings. Scores are read as written; a score of `nan` (any case) reads as NaN, which
  // the metrics treat as unscored (the last tie). Positions in the file (rank columns)
  // are not read: metrics recompute ties from the scores, so a file sorted differently, or
  // whose ranks disagree with its scores, is still scored by its scores.
  std::vector<ScoredElement> elements;
};

// What each format fills in:
// - csv: key = `element`; file, line and function from their columns when the header has
//   them, else parsed from `element` (element_from_name); kind `extrinsic` gives an
//   element without file, function or line (it matches no fault). last_line stays 0:
//   the CSV has the first line only.
// - json: the same from the members, plus last_line (null = same as line).
// - gzoltar: everything from the name (element_from_name).
// - csv and json: when both `ef` and `ep` are there (dlfl rank writes them), executed =
//   ef + ep > 0; else every element counts as executed. A negative or non-numeric count
//   is an error.
// Columns and members beyond these are ignored, so later versions may add some.

// Parses a whole ranking file's text. `source_name` labels messages. Throws dlfl::Error
// "SOURCE:LINE: what" for a missing header or column, a malformed CSV record (an open
// quote), a row with a wrong number of fields, an empty element name, a score that is not
// a number, a line number that is not a positive integer, invalid JSON or a JSON value of
// the wrong type; and "SOURCE: what" for a file with no element at all.
std::vector<ReadRanking> parse_rankings(std::string_view text, RankingFileFormat format,
                                        const std::string& source_name);

// Reads a ranking file; the format is detected (detect_ranking_format) unless given. A
// GZoltar ranking takes its formula from the file name. Throws dlfl::Error naming the
// file when it cannot be read, and as parse_rankings.
std::vector<ReadRanking> read_rankings(const std::filesystem::path& path,
                                       std::optional<RankingFileFormat> format = std::nullopt);

// The format of a ranking file from its first non-blank character and header line: `{`
// is json; a header `name;suspiciousness_value` is gzoltar; a header holding the columns
// `element` and `score` is csv. Throws dlfl::Error "SOURCE:1: ..." naming what was
// expected otherwise.
RankingFileFormat detect_ranking_format(std::string_view text, const std::string& source_name);

// "csv", "json" or "gzoltar" (case-insensitive); nullopt otherwise.
std::optional<RankingFileFormat> parse_ranking_file_format(std::string_view name) noexcept;

// Splits a GZoltar-style element name into file, function and line (key = the name, score
// 0, last_line 0):
// - the line is the decimal number after the last `:`, when there is one;
// - the file is what precedes the first `#`, the function what follows it;
// - a Java name `org.pkg$Outer$Inner#method(args)` (the part before `#` holds a `$` and no
//   `/`) becomes file `org/pkg/Outer.java` (the source file of the outer class, as
//   Defects4J names faulty files) and function `Outer.Inner.method(args)`; same_function
//   (fault_matching.h) ignores the parameter list and matches `method` by its tail.
// A name with neither `#` nor a line is a whole file. Names are not validated: any text
// gives some element.
ScoredElement element_from_name(std::string_view name);

}  // namespace dlfl::io
