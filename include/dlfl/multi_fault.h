// Multi-fault ranking: FLITSR (Callaghan and Fischer, "Improving Spectrum-Based
// Localization of Multiple Faults by Iterative Test Suite Reduction", ISSTA 2023).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "dlfl/formula.h"
#include "dlfl/spectrum.h"

namespace dlfl {

enum class MultiFault { flitsr };
// "flitsr"; nullopt for any other name.
std::optional<MultiFault> parse_multi_fault(std::string_view name) noexcept;
// The name parse_multi_fault reads back.
std::string_view multi_fault_name(MultiFault technique) noexcept;

struct MultiFaultRanking {
  // The basis: one element per fault FLITSR believes in, in the order found.
  std::vector<std::uint32_t> basis;
  // Ordinal scores (larger = more suspicious): the basis first, in order, then every other
  // element in the order of the formula's scores on the whole suite (ties kept).
  Eigen::ArrayXd scores;
};

// FLITSR: score the suite; the most suspicious element that a failing test runs joins the
// basis and the failing tests that run it leave the suite (they are explained); repeat
// until no failing test is left. Each fault's best element thus rises to the top instead
// of hiding behind another fault's failures. Inside the top tie the element run by the most
// remaining failing tests wins, then `tie_keys` (Spectrum::tie_break_keys) order. A test
// with failure weight w > 0 counts as failing. Cost O(basis size × nnz).
MultiFaultRanking flitsr(const Spectrum& spectrum, const Formula& formula, std::span<const std::uint64_t> tie_keys);

}  // namespace dlfl
