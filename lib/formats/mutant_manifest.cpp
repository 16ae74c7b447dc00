// The mutants manifest of a mutant schemata build (mutant_manifest.h), as JSON.
#include "dlfl/formats/mutant_manifest.h"

#include <nlohmann/json.hpp>
#include <set>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "versioned_json.h"

namespace dlfl::io {
namespace {

using json = nlohmann::json;
constexpr const char* kFormat = "dlfl-mutant-schemata";
constexpr int kVersion = 1;

template <typename T>
T field(const json& j, const char* name, const std::string& where) {
  const auto it = j.find(name);
  if (it == j.end()) throw Error(where + ": no \"" + name + "\"");
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw Error(where + ": \"" + name + "\" has the wrong type");
  }
}

}  // namespace

void write_mutant_manifest(const MutantManifest& manifest, const std::filesystem::path& path) {
  json mutants = json::array();
  for (const auto& m : manifest.mutants)
    mutants.push_back({{"number", m.number},
                       {"id", m.id},
                       {"file", m.file},
                       {"line", m.line},
                       {"column", m.column},
                       {"operator", m.op},
                       {"original", m.original},
                       {"replacement", m.replacement},
                       {"function", m.function}});
  json doc = {{"format", kFormat},
              {"version", kVersion},
              {"switch", manifest.switch_variable},
              {"tree", manifest.tree},
              {"generated", manifest.generated},
              {"dropped_uncompilable", manifest.dropped_uncompilable},
              {"dropped_unguardable", manifest.dropped_unguardable},
              {"mutants", mutants}};
  if (manifest.lines) {
    json lines = json::array();
    for (const auto& l : *manifest.lines) lines.push_back({{"file", l.file}, {"line", l.line}});
    doc["lines"] = std::move(lines);
  }
  AtomicFile out(path);
  // Replacement text is source code, possibly not UTF-8: replace what is not.
  out.stream() << doc.dump(1, ' ', false, json::error_handler_t::replace) << '\n';
  out.commit();
}

MutantManifest read_mutant_manifest(const std::filesystem::path& path) {
  const std::string source = path.string();
  const json doc = detail::read_versioned_json(path, kFormat, kVersion, "mutants manifest");
  MutantManifest m;
  m.switch_variable = field<std::string>(doc, "switch", source);
  m.tree = field<std::string>(doc, "tree", source);
  m.generated = field<std::size_t>(doc, "generated", source);
  m.dropped_uncompilable = field<std::size_t>(doc, "dropped_uncompilable", source);
  m.dropped_unguardable = field<std::size_t>(doc, "dropped_unguardable", source);
  const auto mutants = doc.find("mutants");
  if (mutants == doc.end() || !mutants->is_array()) throw Error(source, 0, "no \"mutants\" array");
  std::set<std::uint32_t> numbers;
  for (std::size_t i = 0; i < mutants->size(); ++i) {
    const json& j = (*mutants)[i];
    const std::string where = source + ": mutant " + std::to_string(i + 1);
    if (!j.is_object()) throw Error(where + ": not an object");
    ManifestMutant x;
    x.number = field<std::uint32_t>(j, "number", where);
    x.id = field<std::string>(j, "id", where);
    x.file = field<std::string>(j, "file", where);
    x.line = field<std::uint32_t>(j, "line", where);
    x.column = field<std::uint32_t>(j, "column", where);
    x.op = field<std::string>(j, "operator", where);
    x.original = field<std::string>(j, "original", where);
    x.replacement = field<std::string>(j, "replacement", where);
    x.function = field<std::string>(j, "function", where);
    if (x.number == 0) throw Error(where + ": number 0 is the original program");
    if (!numbers.insert(x.number).second) throw Error(where + ": number " + std::to_string(x.number) + " repeats");
    if (x.line == 0) throw Error(where + ": line 0");
    m.mutants.push_back(std::move(x));
  }
  if (const auto lines = doc.find("lines"); lines != doc.end()) {
    if (!lines->is_array()) throw Error(source, 0, "\"lines\" is not an array");
    m.lines.emplace();
    for (std::size_t i = 0; i < lines->size(); ++i) {
      const json& j = (*lines)[i];
      const std::string where = source + ": line " + std::to_string(i + 1) + " of \"lines\"";
      if (!j.is_object()) throw Error(where + ": not an object");
      ManifestLine l{field<std::string>(j, "file", where), field<std::uint32_t>(j, "line", where)};
      if (l.line == 0) throw Error(where + ": line 0");
      m.lines->push_back(std::move(l));
    }
  }
  return m;
}

std::uint64_t manifest_digest(const MutantManifest& manifest) {
  // FNV-1a over the fields that make a mutant what it is, with separators.
  std::uint64_t h = 1469598103934665603ull;
  auto add = [&](std::string_view s) {
    for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    h = (h ^ 0xffu) * 1099511628211ull;
  };
  add(manifest.switch_variable);
  for (const auto& m : manifest.mutants) {
    add(std::to_string(m.number));
    add(m.file);
    add(std::to_string(m.line));
    add(std::to_string(m.column));
    add(m.op);
    add(m.original);
    add(m.replacement);
  }
  return h;
}

}  // namespace dlfl::io
