// Ground truth: the program elements a bug's fix shows to be faulty, and the text list
// format users write them in.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::eval {

// One known-faulty element. Its granularity follows from which fields are set:
//   line > 0          a line of `file` (1-based); `function` may name the enclosing
//                     function when it is known (Denchmark records it), else empty;
//   line == 0, function non-empty   a function of `file`;
//   both empty        the whole file.
// `file` is a repository-relative path with '/' separators; it is never empty.
struct GroundTruthItem {
  std::string file;
  std::uint32_t line = 0;  // 1-based; 0 = none
  std::string function;    // as the source names it, e.g. "cv::ExrDecoder::readData"

  friend bool operator==(const GroundTruthItem&, const GroundTruthItem&) = default;
};

// Parses a ground-truth list: one item per line, in one of the forms
//   file            the whole file
//   file:LINE       a line (LINE a positive decimal number)
//   file:LINE:function   a line and its enclosing function
//   file:function   a function (anything after the colon that is not a number,
//                   e.g. "src/conv.cc:tensorflow::Conv2DOp::Compute")
// The file ends at the first single ':' (a "::" belongs to a function name; a drive
// letter "C:/" is kept in the file). Backslashes in the file become '/'. Blank lines
// and lines whose first non-blank character is '#' are skipped; surrounding blanks are
// trimmed. Throws dlfl::Error "SOURCE:LINE: ..." for an empty file name or a line
// number of 0 or out of range. `source_name` only labels messages.
std::vector<GroundTruthItem> parse_ground_truth(std::string_view text,
                                                const std::string& source_name);

// Reads and parses a ground-truth file; throws dlfl::Error naming the file if it
// cannot be read.
std::vector<GroundTruthItem> read_ground_truth(const std::filesystem::path& path);

// The item in the list syntax above ("file", "file:LINE", "file:LINE:function" or
// "file:function"); parse_ground_truth(to_string(x)) gives x back.
std::string to_string(const GroundTruthItem& item);

// Writes one item a line, in the syntax above.
void write_ground_truth(std::ostream& out, const std::vector<GroundTruthItem>& items);

}  // namespace dlfl::eval
