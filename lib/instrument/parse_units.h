// Parses translation units with the probe planner, N at a time, and keeps each unit's
// clang messages apart so they can be shown in order (or summed up) once all are done.
#pragma once

#include <clang/Tooling/ArgumentsAdjusters.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "call_graph_extractor.h"
#include "probe_plan.h"

namespace clang::tooling {
class CompilationDatabase;
}

namespace dlfl::instrument::detail {

// An #include clang could not find, where it was written ("src/a.cc:3").
struct MissingInclude {
  std::string header;
  std::string included_from;
};

// A translation unit whose parse reported errors.
struct FailedUnit {
  std::string file;                     // as the compilation database spells it
  std::string messages;                 // clang's diagnostics, as clang prints them
  std::vector<MissingInclude> missing;  // the errors among them that are missing #includes
  // The warning groups of its errors that are warnings clang makes errors (e.g.
  // "return-type": a `return;` in a non-void C function, which gcc only warns about).
  std::vector<std::string> error_warning_groups;
};

struct ParsedUnits {
  PlanSet plans;                   // merged over every unit (the same whatever `jobs`)
  std::vector<FailedUnit> failed;  // in the order of `sources`
  CallGraphFacts calls;            // the call graph walk's findings, merged over units
};

// Runs the planner over `sources` (compile commands from `db`, rewritten by `adjust`) on
// `jobs` threads (0 = one per hardware thread). `log` gets progress lines (may be empty);
// it is called from one thread at a time.
ParsedUnits parse_units(const clang::tooling::CompilationDatabase& db, const std::vector<std::string>& sources,
                        const PlannerConfig& config, const clang::tooling::ArgumentsAdjuster& adjust, unsigned jobs,
                        const std::function<void(std::string_view)>& log);

}  // namespace dlfl::instrument::detail
