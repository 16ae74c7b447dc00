// The "bugscpp" member of a manifest line (bugset_manifest.h) to and from JSON. Private
// to dlfl_lab_eval: the manifest reader and writer call it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "dlfl/lab/eval/bugscpp_defect.h"

namespace dlfl::eval {

// {"url", "index", "build", "build_coverage", "test", "test_coverage", "extra_tests",
//  "num_cases", "cases", "tags", "patches": {"common", "split", "buggy", "fixed"},
//  "extra_files": [...]}; a file is {"path", "text"} when its content is UTF-8 without
// NUL bytes, else {"path", "base64"}; an absent patch is null.
nlohmann::ordered_json bugscpp_json(const BugsCppDefect& defect);

// The inverse; throws dlfl::Error "SOURCE:LINE: what" for a missing or mistyped member,
// invalid base64, a case outside 1..num_cases, or an extra file whose path is not
// contained in the tree (absolute, with "..").
BugsCppDefect parse_bugscpp_json(const nlohmann::ordered_json& value, const std::string& source, std::size_t line);

// Whether `bytes` is UTF-8 without NUL bytes: such content goes into JSON as text.
bool is_plain_utf8(std::string_view bytes) noexcept;

}  // namespace dlfl::eval
