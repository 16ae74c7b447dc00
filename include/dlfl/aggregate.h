// Aggregation: a line-level spectrum lifted to functions or files, or line scores
// lifted by taking the maximum.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl {

// block: the lines of one function that every test runs together (identical coverage
// columns) are one element spanning them; a basic block as far as the suite can tell.
enum class Granularity { line, function, file, block };

// "line", "block", "function", "file" (exact, lower case); nullopt for any other name.
std::optional<Granularity> parse_granularity(std::string_view name) noexcept;
// The name parse_granularity reads back.
std::string_view granularity_name(Granularity granularity) noexcept;

struct Aggregated {
  Spectrum spectrum;                   // one element per group
  std::vector<std::uint32_t> group_of; // input element → its group (element of `spectrum`)
};

// Groups code elements by (file, function) or by file; a group is covered by a test when
// any of its members is, and spans the members' lines. Extrinsic elements stay as they
// are. Granularity::line returns the input unchanged (identity mapping). Granularity::block
// makes each maximal run of adjacent lines of one function with identical coverage columns
// one element spanning them (the group's column is their shared column): a basic block as
// far as the suite can tell. Runs are found in (file, line) order, so a line of another
// function (a lambda's) or with another column ends a run. Cost O(n log n + nnz).
Aggregated aggregate(const Spectrum& spectrum, Granularity granularity);

// Score of each group = the maximum score of its members (the `max` aggregation mode).
Eigen::ArrayXd max_by_group(const Eigen::ArrayXd& scores, std::span<const std::uint32_t> group_of,
                            std::size_t groups);

}  // namespace dlfl
