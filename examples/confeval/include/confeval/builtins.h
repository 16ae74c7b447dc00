// The functions a config expression can call: len, min, max, abs, int, float, str, lower,
// upper, join, contains, clamp.
#pragma once

#include <string_view>
#include <vector>

#include "confeval/source_location.h"
#include "confeval/value.h"

namespace confeval {

bool is_builtin(std::string_view name);

// The builtin names in alphabetical order (for messages and documentation).
std::vector<std::string_view> builtin_names();

// Calls `name` on evaluated arguments. Throws EvalError located at `where` (the function
// name) for an unknown function, a wrong argument count or type, or a bad value.
//   len(s|a)        length of a string (bytes) or an array
//   min(x, ...)     smallest of numbers or strings, or of one array's elements; max likewise
//   abs(n)          absolute value, keeping int or float
//   int(x)          float truncated toward zero, bool as 0/1, decimal string parsed
//   float(x)        int, float or decimal string as a float
//   str(x)          the text ${x} would insert
//   lower(s), upper(s)  ASCII case mapping
//   join(a, sep)    the elements' text joined by the string sep
//   contains(a, x)  an element loosely equal to x; for strings, a substring
//   clamp(n, lo, hi)  n limited to [lo, hi] (lo <= hi)
Value call_builtin(std::string_view name, const std::vector<Value>& arguments,
                   const SourceLocation& where);

}  // namespace confeval
