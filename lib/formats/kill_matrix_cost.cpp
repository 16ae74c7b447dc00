// The cost record of a `dlfl kill-matrix` run (kill_matrix_cost.h), as JSON.
#include "dlfl/formats/kill_matrix_cost.h"

#include <nlohmann/json.hpp>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "versioned_json.h"

namespace dlfl::io {
namespace {

using json = nlohmann::json;
constexpr const char* kFormat = "dlfl-kill-matrix-cost";
constexpr int kVersion = 1;

template <typename T>
T field(const json& j, const char* name, const std::string& source) {
  const auto it = j.find(name);
  if (it == j.end()) throw Error(source, 0, std::string("no \"") + name + "\"");
  const bool fits = std::is_floating_point_v<T> ? it->is_number() : it->is_number_unsigned();
  if (!fits || it->get<double>() < 0)
    throw Error(source, 0, std::string("\"") + name + "\" must be a number from 0");
  return it->get<T>();
}

}  // namespace

void write_kill_matrix_cost(const KillMatrixCost& cost, const std::filesystem::path& path) {
  json doc = {{"format", kFormat},
              {"version", kVersion},
              {"generated", cost.generated},
              {"compiled", cost.compiled},
              {"killed", cost.killed},
              {"runs", cost.runs},
              {"reused", cost.reused},
              {"generate_seconds", cost.generate_seconds},
              {"build_seconds", cost.build_seconds},
              {"run_seconds", cost.run_seconds}};
  if (cost.plain_build_seconds) doc["plain_build_seconds"] = *cost.plain_build_seconds;
  AtomicFile out(path);
  out.stream() << doc.dump(1) << '\n';
  out.commit();
}

KillMatrixCost read_kill_matrix_cost(const std::filesystem::path& path) {
  const std::string source = path.string();
  const json doc = detail::read_versioned_json(path, kFormat, kVersion, "kill matrix cost record");
  KillMatrixCost cost;
  cost.generated = field<std::size_t>(doc, "generated", source);
  cost.compiled = field<std::size_t>(doc, "compiled", source);
  cost.killed = field<std::size_t>(doc, "killed", source);
  cost.runs = field<std::size_t>(doc, "runs", source);
  cost.reused = field<std::size_t>(doc, "reused", source);
  cost.generate_seconds = field<double>(doc, "generate_seconds", source);
  cost.build_seconds = field<double>(doc, "build_seconds", source);
  cost.run_seconds = field<double>(doc, "run_seconds", source);
  if (doc.contains("plain_build_seconds")) cost.plain_build_seconds = field<double>(doc, "plain_build_seconds", source);
  return cost;
}

}  // namespace dlfl::io
