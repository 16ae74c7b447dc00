// The Clang front-end action that plans probes for one translation unit.
#pragma once

#include <memory>

#include "probe_plan.h"

namespace clang::tooling {
class FrontendActionFactory;
}

namespace dlfl::instrument::detail {

// Creates actions that walk each parsed translation unit and add its probes to `plans`.
// Both objects must outlive the factory. Parse errors are the caller's to watch (the
// diagnostics consumer of its tool): a unit with errors still adds the probes of the AST
// clang recovered.
std::unique_ptr<clang::tooling::FrontendActionFactory> make_planner_factory(const PlannerConfig& config,
                                                                            PlanSet& plans);

}  // namespace dlfl::instrument::detail
