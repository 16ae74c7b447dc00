// The Clang front-end action that plans probes for one translation unit.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "probe_plan.h"

namespace clang::tooling {
class FrontendActionFactory;
}

namespace dlfl::instrument::detail {

// Translation units whose parse reported errors (main file paths), filled by the action.
struct ParseFailures {
  std::vector<std::string> files;
};

// Creates actions that walk each parsed translation unit and add its probes to `plans`.
// Both objects must outlive the factory.
std::unique_ptr<clang::tooling::FrontendActionFactory> make_planner_factory(const PlannerConfig& config,
                                                                            PlanSet& plans,
                                                                            ParseFailures& failures);

}  // namespace dlfl::instrument::detail
