// read_versioned_json() (versioned_json.h).
#include "versioned_json.h"

#include "dlfl/error.h"
#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"

namespace dlfl::io::detail {

nlohmann::json read_versioned_json(const std::filesystem::path& path, std::string_view format, int version,
                                   const std::string& noun) {
  const std::string source = path.string();
  const std::string text = read_text_file(path);
  check_json_depth(text, source);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw Error(source, 0, std::string("not JSON: ") + e.what());
  }
  if (!doc.is_object() || doc.value("format", "") != format)
    throw Error(source, 0, "not a " + noun + " (no \"format\": \"" + std::string(format) + "\")");
  if (doc.value("version", 0) != version)
    throw Error(source, 0, noun + " version " + doc.value("version", nlohmann::json(0)).dump() + " (this dlfl reads " +
                               std::to_string(version) + ")");
  return doc;
}

}  // namespace dlfl::io::detail
