// find_python_functions(): the functions of a Python source by its indentation, for
// coverage.py reports that come without dlfl_pytest's function table (coverage.py < 7.5
// writes no functions). The table dlfl_pytest writes comes from Python's own ast and wins.
#pragma once

#include <string_view>
#include <vector>

#include "dlfl/formats/pytest_run_report.h"

namespace dlfl::collect {

// `def`, `async def` (and `class`, as a name prefix) blocks: a function spans from its first
// decorator to its last non-blank line before a line indented no deeper than its `def`.
// Names are qualified like Python's __qualname__: `Class.method`, `outer.<locals>.inner`.
// Bracketed continuation lines and triple-quoted strings do not end a block. Sorted by
// first line; an unparsable source gives what could be read (never throws).
std::vector<io::PythonFunction> find_python_functions(std::string_view source);

// The innermost function of `functions` (sorted by first line) holding `line`; "" when none.
std::string_view python_function_at(const std::vector<io::PythonFunction>& functions, std::uint32_t line);

}  // namespace dlfl::collect
