// Joining the shards of a sharded reproduction (include/dlfl/lab/bench/shard_join.h).
#include "dlfl/lab/bench/shard_join.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/lab/bench/reproduce_runner.h"
#include "dlfl/lab/bench/results_store.h"
#include "dlfl/lab/bench/run_directory.h"
#include "dlfl/lab/bench/work_tree.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// One shard's output directory, read and checked.
struct ShardDir {
  fs::path dir;
  collect::Shard shard;
  json study;                                  // its configuration without the shard
  std::map<std::string, std::string> ids;      // record key -> bug id (the files' names)
  std::vector<FaultRecord> records;
};

json read_json(const fs::path& file, const std::string& what) {
  if (!fs::exists(file)) throw Error(file.string(), 0, "missing: " + what);
  try {
    return json::parse(read_text(file));
  } catch (const json::exception& e) {
    throw Error(file.string(), 0, std::string("not valid JSON: ") + e.what());
  }
}

ShardDir read_shard(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw Error(dir.string(), 0, "no such shard directory");
  const std::string not_shard = "is this the output directory of `dlfl bugset reproduce --shard I/N`?";
  ShardDir s;
  s.dir = dir;
  s.study = read_json(dir / std::string(kReproduceConfigFileName), not_shard);
  const json listed = read_json(dir / std::string(kShardFileName), not_shard);
  try {
    s.shard = collect::parse_shard(listed.at("shard").get<std::string>());
    if (!s.study.contains("shard") || s.study.at("shard") != listed.at("shard"))
      throw Error("its configuration names another shard than " + std::string(kShardFileName));
    s.study.erase("shard");
    for (const auto& bug : listed.at("bugs")) s.ids[bug.at("key").get<std::string>()] = bug.at("id").get<std::string>();
  } catch (const json::exception& e) {
    throw Error((dir / std::string(kShardFileName)).string(), 0, std::string("malformed: ") + e.what());
  } catch (const Error& e) {
    throw Error(dir.string(), 0, e.message());
  }
  const fs::path store = dir / std::string(kResultsFileName);
  if (fs::exists(store)) s.records = read_records(store);
  return s;
}

// What must be equal for two records of one bug to agree: not the time, machine, clone
// path or output tail, which differ between two tasks that ran the same bug alike.
std::string outcome_of(FaultRecord r) {
  r.seconds = 0;
  r.host.clear();
  r.clone.clear();
  r.tail.clear();
  return record_to_json(r);
}

// A record and where it comes from.
struct Source {
  FaultRecord record;
  const ShardDir* shard = nullptr;  // null: out_dir's own store
};

void copy_atomically(const fs::path& from, const fs::path& to) {
  io::AtomicFile out(to);
  out.stream() << read_text(from);
  out.commit();
}

// The spectrum files and log folder of bug `id` from `shard` into `out_dir`.
void copy_bug_files(const fs::path& shard, const std::string& id, const fs::path& out_dir) {
  const fs::path spectra = shard / "spectra";
  if (fs::is_directory(spectra))
    for (const auto& entry : fs::directory_iterator(spectra)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || !name.starts_with(id + ".")) continue;
      fs::create_directories(out_dir / "spectra");
      copy_atomically(entry.path(), out_dir / "spectra" / name);
    }
  const fs::path logs = shard / "logs" / id;
  if (!fs::is_directory(logs)) return;
  fs::create_directories(out_dir / "logs");
  io::AtomicDirectory copy(out_dir / "logs" / id);
  fs::copy(logs, copy.temp_path(), fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  copy.commit();
}

}  // namespace

std::string shard_name(const collect::Shard& shard) { return fmt::format("{}/{}", shard.index, shard.count); }

JoinResult join_shards(const std::vector<fs::path>& shard_dirs, const fs::path& out_dir) {
  if (shard_dirs.empty()) throw Error("bugset join: no shard directories given");
  std::vector<ShardDir> shards;
  for (const auto& dir : shard_dirs) {
    if (fs::exists(out_dir) && fs::exists(dir) && fs::equivalent(dir, out_dir))
      throw Error(dir.string(), 0, "is the output directory itself: join into another one");
    shards.push_back(read_shard(dir));
  }
  const ShardDir& first = shards.front();
  std::map<std::size_t, const ShardDir*> by_index;
  for (const auto& s : shards) {
    if (s.study != first.study)
      throw Error(s.dir.string(), 0,
                  "a shard of another study than " + first.dir.string() + " (manifest, formulas or top N differ)");
    if (s.shard.count != first.shard.count)
      throw Error(s.dir.string(), 0,
                  "shard " + shard_name(s.shard) + " of another split than " + first.dir.string() + " (" +
                      shard_name(first.shard) + ")");
    if (const auto [it, added] = by_index.emplace(s.shard.index, &s); !added)
      throw Error(s.dir.string(), 0, "shard " + shard_name(s.shard) + " given twice (also " + it->second->dir.string() + ")");
  }
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < first.shard.count; ++i)
    if (!by_index.contains(i)) missing.push_back(shard_name({i, first.shard.count}));
  if (!missing.empty())
    throw Error(fmt::format("bugset join: shard{} {} {} missing: none of the directories given holds {} (did {} task fail "
                            "or not start?)",
                            missing.size() > 1 ? "s" : "", fmt::join(missing, ", "), missing.size() > 1 ? "are" : "is",
                            missing.size() > 1 ? "them" : "it", missing.size() > 1 ? "their" : "its"));
  for (const auto& s : shards) {
    std::set<std::string> done;
    for (const auto& r : s.records) done.insert(r.key());
    std::vector<std::string> pending;
    for (const auto& [key, id] : s.ids)
      if (!done.contains(key)) pending.push_back(id);
    if (!pending.empty())
      throw Error(s.dir.string(), 0,
                  fmt::format("shard {} is unfinished: {} of its {} bugs have no result ({}); run its task again",
                              shard_name(s.shard), pending.size(), s.ids.size(), fmt::join(pending, ", ")));
  }

  // One source per bug: the latest attempt; equal attempts must agree.
  fs::create_directories(out_dir);
  json study = first.study;
  check_run_configuration(out_dir / std::string(kReproduceConfigFileName), study.dump(),
                          "reproduction configuration (manifest, formulas or top N differ)");
  ResultsStore store(out_dir / std::string(kResultsFileName));
  std::map<std::string, Source> chosen;
  std::vector<std::string> order;  // keys in the order first met: the shards' order
  const auto offer = [&](const FaultRecord& r, const ShardDir* from) {
    const auto [it, added] = chosen.emplace(r.key(), Source{r, from});
    if (added) {
      order.push_back(r.key());
      return;
    }
    Source& held = it->second;
    if (r.attempt > held.record.attempt) {
      held = Source{r, from};
    } else if (r.attempt == held.record.attempt && outcome_of(r) != outcome_of(held.record)) {
      const auto name = [&](const ShardDir* s) {
        return s ? "shard " + shard_name(s->shard) + " (" + s->dir.string() + ")" : out_dir.string();
      };
      throw Error(fmt::format("bugset join: bug {} is recorded differently by {} and {}: a bug belongs to one shard; "
                              "were these shards split otherwise, or reproduced into the same directory twice?",
                              r.key(), name(held.shard), name(from)));
    }
  };
  for (const auto& r : store.records()) offer(r, nullptr);
  for (const auto& s : shards)
    for (const auto& r : s.records) offer(r, &s);

  // The recipes the records name (one file per recipe digest: the same name, the same text).
  for (const auto& s : shards)
    if (fs::is_directory(s.dir / "recipes"))
      for (const auto& entry : fs::directory_iterator(s.dir / "recipes")) {
        const fs::path to = out_dir / "recipes" / entry.path().filename();
        if (!entry.is_regular_file() || fs::exists(to)) continue;
        fs::create_directories(to.parent_path());
        copy_atomically(entry.path(), to);
      }
  JoinResult result;
  result.shards = first.shard.count;
  for (const auto& key : order) {
    const Source& source = chosen.at(key);
    if (!source.shard) continue;  // out_dir's own
    const FaultRecord* held = store.find(key);
    if (held && held->attempt >= source.record.attempt) continue;  // joined before
    const auto id = source.shard->ids.find(key);
    copy_bug_files(source.shard->dir, id != source.shard->ids.end() ? id->second : key, out_dir);
    store.append(source.record);
    ++result.added;
  }
  result.records = store.records();
  write_run_outputs(out_dir, result.records,
                    {.top_n = study.value("top_n", std::vector<std::uint64_t>{1, 3, 5, 10}), .real_bugs = true});
  return result;
}

}  // namespace dlfl::bench
