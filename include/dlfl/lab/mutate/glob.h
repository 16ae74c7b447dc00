// Path globs for choosing the files `dlfl mutate` may change.
#pragma once

#include <string_view>

namespace dlfl::mutate {

// Whether `path` ('/' separators) matches `glob`: `*` is any run of characters but '/',
// `?` one character but '/', `**` any run including '/' ("src/**.cpp" matches
// "src/a/b.cpp"; "**/x.h" also matches "x.h"), anything else matches itself.
bool glob_match(std::string_view glob, std::string_view path);

}  // namespace dlfl::mutate
