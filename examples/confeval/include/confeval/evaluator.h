// Evaluates assignments into a Config: references resolved lazily in any order, with cycle
// detection, so a key may refer to one defined later in the file or in another file.
#pragma once

#include <vector>

#include "confeval/config.h"
#include "confeval/document.h"

namespace confeval {

// Evaluates every assignment; the Config keeps their order. A reference `x.y` written under
// [a.b] is looked up as a.b.x.y, then a.x.y, then x.y: the innermost section first, so a
// section can shadow a top-level default. Throws EvalError at the offending expression for
// a duplicate key, an unknown key, a reference cycle, or any error of operators.h and
// builtins.h.
Config evaluate(const std::vector<Assignment>& assignments);

// Convenience: the assignments of one document, ignoring its @include directives.
Config evaluate(const Document& document);

}  // namespace confeval
