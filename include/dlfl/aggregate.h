// Aggregation: a line-level spectrum lifted to functions or files, or line scores
// lifted by taking the maximum.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl {

enum class Granularity { line, function, file };

struct Aggregated {
  Spectrum spectrum;                   // one element per group
  std::vector<std::uint32_t> group_of; // input element → its group (element of `spectrum`)
};

// Groups code elements by (file, function) or by file; a group is covered by a test when
// any of its members is, and spans the members' lines. Extrinsic elements stay as they
// are. Granularity::line returns the input unchanged (identity mapping).
Aggregated aggregate(const Spectrum& spectrum, Granularity granularity);

// Score of each group = the maximum score of its members (the `max` aggregation mode).
Eigen::ArrayXd max_by_group(const Eigen::ArrayXd& scores, std::span<const std::uint32_t> group_of,
                            std::size_t groups);

}  // namespace dlfl
