// The JSON record files dlfl writes with a "format" name and a "version" (the mutants
// manifest, the kill matrix cost): read, bounded, and checked to be that format and version.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace dlfl::io::detail {

// The document at `path` ("format": `format`, "version": `version`); `noun` names it in
// errors ("mutants manifest": "not a mutants manifest ..."). Throws dlfl::Error naming
// the file for unreadable, too deep or malformed JSON, another format or version.
nlohmann::json read_versioned_json(const std::filesystem::path& path, std::string_view format, int version,
                                   const std::string& noun);

}  // namespace dlfl::io::detail
