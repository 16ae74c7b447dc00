// Loading a configuration: reading the root file, following @include directives, and
// evaluating the result. The entry points most callers need.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "confeval/config.h"
#include "confeval/document.h"
#include "confeval/source_provider.h"

namespace confeval {

struct LoadOptions {
  int max_include_depth = 16;  // the root file is depth 0
};

// Every assignment of the root file and its includes, an included file's assignments in
// place of its @include, plus the text of every file read (to render diagnostics).
struct Program {
  std::vector<Assignment> assignments;
  std::map<std::string, std::string> sources;
};

// Reads `root` and its includes. Sections do not cross files: an included file starts at
// the top level, and the including file's section resumes after the @include. Throws
// IncludeError (at the @include) for an unreadable file, an include cycle or too deep a
// nesting, and SyntaxError from the parser. A file included twice (not in a cycle) defines
// its keys twice, which evaluation reports as duplicate keys.
Program load_program(const std::string& root, const SourceProvider& sources,
                     const LoadOptions& options = {});

// load_program followed by evaluate.
Config load_config(const std::string& root, const SourceProvider& sources,
                   const LoadOptions& options = {});

// A single text with no includes to follow (an @include fails as unreadable).
Config parse_config(std::string_view text, const std::string& file = "<input>");

}  // namespace confeval
