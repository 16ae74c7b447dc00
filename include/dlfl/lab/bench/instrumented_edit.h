// Seeding a mutant into the `dlfl instrument` copy of its file, so that each fault costs
// one incremental compile of one translation unit instead of a new instrumentation.
//
// Why this works: the instrumenter only *inserts* text (a prologue ending in `#line 1`,
// probe stores before statements, `{ ` ... ` }` around single-statement bodies) and keeps
// every original line on its line (lib/instrument/rewrite.cpp). So the mutated line is
// found at the same line below the prologue, the probe texts are recognised and stepped
// over, and the mutant's bytes are located in what is left. Probe ids, the probe map and
// its id stay those of the unmutated tree, so one probe map serves every fault.
// Measured on tensorlite (2 shared cores): placing an edit takes well under a millisecond
// and the fault then costs one unit's compile and a link (about 2-4 s); re-instrumenting
// instead costs the instrumenter's Clang pass (about 11 s), and since probe ids are
// numbered across the whole tree and the map id is compiled into every object, any
// change of probe count means rebuilding everything (about 75 s).
#pragma once

#include <string>

#include "dlfl/lab/mutate/mutant.h"

namespace dlfl::bench {

struct InstrumentedEdit {
  bool ok = false;
  std::string text;    // the instrumented file with the mutant applied (when ok)
  std::string reason;  // why the edit cannot be placed (when !ok)
};

// `original` is the whole original file, `instrumented` its instrumented copy (or an
// identical copy, for files the instrumenter did not rewrite). Fails (ok = false, not an
// exception) when the original does not hold the mutant's text, the copy does not
// correspond to the original around the mutant, the edited bytes hold one of the braces
// the instrumenter adds around a single statement without the other, or the replacement has more line breaks than the original (lines would shift
// and the probe map would point at the wrong lines). A replacement with fewer line breaks
// is padded with line breaks at its end for the same reason. Probes inside the edited
// bytes (a deleted block) are replaced with them: that code no longer exists.
InstrumentedEdit apply_to_instrumented(const std::string& original, const std::string& instrumented,
                                       const mutate::Mutant& mutant);

}  // namespace dlfl::bench
