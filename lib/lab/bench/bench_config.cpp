// Reading benchmark files (include/dlfl/lab/bench/bench_config.h).
#include "dlfl/lab/bench/bench_config.h"

#include <nlohmann/json.hpp>
#include <set>

#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"
#include "dlfl/lab/bench/fault_pipeline.h"  // is_bench_technique
#include "dlfl/error.h"
#include "dlfl/limits.h"

namespace dlfl::bench {
namespace {

using nlohmann::json;

void only(const json& object, const std::set<std::string>& keys, const std::string& file, const std::string& where) {
  for (const auto& [key, value] : object.items())
    if (!keys.contains(key)) throw Error(file, 0, "unknown field \"" + key + "\"" + where);
}

std::uint64_t positive(const json& value, const std::string& file, const std::string& what, bool zero_ok) {
  if (!value.is_number_unsigned() || (!zero_ok && value.get<std::uint64_t>() == 0))
    throw Error(file, 0, what + " must be a " + (zero_ok ? "non-negative" : "positive") + " integer");
  return value.get<std::uint64_t>();
}

}  // namespace

BenchConfig parse_bench_config(std::string_view text, const std::filesystem::path& file) {
  const std::string name = file.string();
  json doc;
  io::check_json_depth(text, name);
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error; out_of_range for 1e400
    throw Error(name, 0, std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_object()) throw Error(name, 0, "a benchmark file holds one JSON object");
  only(doc, {"subjects", "formulas", "techniques", "top_n", "jobs", "multi_fault", "description"}, name, "");
  BenchConfig config;
  const auto subjects = doc.find("subjects");
  if (subjects == doc.end() || !subjects->is_array() || subjects->empty())
    throw Error(name, 0, "\"subjects\" must be a non-empty array");
  for (const auto& item : *subjects) {
    if (!item.is_object() || !item.contains("subject") || !item["subject"].is_string())
      throw Error(name, 0, "each subject is an object with a \"subject\" path");
    only(item, {"subject", "max", "seed"}, name, " in a subject");
    SubjectRun run;
    run.subject_file = (file.parent_path() / item["subject"].get<std::string>()).lexically_normal();
    if (item.contains("max")) run.max = positive(item["max"], name, "\"max\"", true);
    if (item.contains("seed")) run.seed = positive(item["seed"], name, "\"seed\"", true);
    config.subjects.push_back(run);
  }
  if (const auto it = doc.find("formulas"); it != doc.end()) {
    if (!it->is_array() || it->empty()) throw Error(name, 0, "\"formulas\" must be a non-empty array of names");
    config.formulas.clear();
    for (const auto& f : *it) {
      if (!f.is_string()) throw Error(name, 0, "\"formulas\" must be a non-empty array of names");
      config.formulas.push_back(f.get<std::string>());
    }
  }
  if (const auto it = doc.find("techniques"); it != doc.end()) {
    if (!it->is_array()) throw Error(name, 0, "\"techniques\" must be an array of names");
    for (const auto& t : *it) {
      if (!t.is_string() || !is_bench_technique(t.get<std::string>()))
        throw Error(name, 0, "unknown technique " + t.dump() + " (block, prfl, neighbors, flitsr, block-flitsr)");
      config.techniques.push_back(t.get<std::string>());
    }
  }
  if (const auto it = doc.find("top_n"); it != doc.end()) {
    if (!it->is_array() || it->empty()) throw Error(name, 0, "\"top_n\" must be a non-empty array");
    config.top_n.clear();
    for (const auto& n : *it) config.top_n.push_back(positive(n, name, "each top N", false));
  }
  if (const auto it = doc.find("jobs"); it != doc.end()) {
    const std::uint64_t jobs = positive(*it, name, "\"jobs\"", false);
    if (jobs > kMaxJobs)
      throw Error(name, 0, "\"jobs\" is " + std::to_string(jobs) + ", more than the limit of " + std::to_string(kMaxJobs));
    config.jobs = static_cast<unsigned>(jobs);
  }
  if (const auto it = doc.find("multi_fault"); it != doc.end()) {
    if (!it->is_object()) throw Error(name, 0, "\"multi_fault\" must be an object {\"k\": [MIN, MAX], \"combinations\": N}");
    only(*it, {"k", "combinations"}, name, " in \"multi_fault\"");
    const auto k = it->find("k");
    if (k == it->end() || !k->is_array() || k->size() != 2)
      throw Error(name, 0, "\"multi_fault\" needs \"k\": [MIN, MAX]");
    config.multi_fault = multi_fault_config(positive((*k)[0], name, "\"k\"", false),
                                            positive((*k)[1], name, "\"k\"", false), name);
    if (const auto c = it->find("combinations"); c != it->end())
      config.multi_fault.combinations = positive(*c, name, "\"combinations\"", false);
  }
  return config;
}

MultiFaultConfig multi_fault_config(std::uint64_t min_k, std::uint64_t max_k, const std::string& source) {
  if (min_k < 2 || max_k > kMaxMultiFaultK || min_k > max_k)
    throw Error(source, 0, "multi-fault k is " + std::to_string(min_k) + ".." + std::to_string(max_k) +
                               ": it must be an ascending range within 2.." + std::to_string(kMaxMultiFaultK));
  MultiFaultConfig config;
  config.min_k = static_cast<unsigned>(min_k);
  config.max_k = static_cast<unsigned>(max_k);
  return config;
}

BenchConfig read_bench_config(const std::filesystem::path& file) {
  const std::filesystem::path absolute = std::filesystem::absolute(file).lexically_normal();
  return parse_bench_config(io::read_text_file(absolute, kMaxBenchConfigBytes, "benchmark file"), absolute);
}

}  // namespace dlfl::bench
