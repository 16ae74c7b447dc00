// `dlfl bugset join SHARD_DIR... -o OUT`: the output directories of the tasks of a
// sharded `dlfl bugset reproduce --shard I/N` joined into one.
#include <iostream>
#include <memory>

#include "commands.h"
#include "dlfl/lab/bench/bench_summary.h"
#include "dlfl/lab/bench/shard_join.h"

namespace dlfl::cli {
namespace {

struct JoinCommandOptions {
  std::vector<std::string> shards;
  std::string out_dir;
};

void run_join(const JoinCommandOptions& o) {
  std::vector<std::filesystem::path> dirs(o.shards.begin(), o.shards.end());
  const bench::JoinResult result = bench::join_shards(dirs, o.out_dir);
  bench::write_summary(std::cout, result.records, {.real_bugs = true});
  std::cerr << "dlfl bugset join: " << result.shards << " shards joined into " << o.out_dir << ": "
            << result.records.size() << " bugs, " << result.added << " new\n";
}

}  // namespace

void add_bugset_join_command(CLI::App& bugset) {
  auto o = std::make_shared<JoinCommandOptions>();
  auto* cmd = bugset.add_subcommand(
      "join",
      "Join the output directories of the N shards of `dlfl bugset reproduce --shard I/N` (one per job-array\n"
      "task) into one: the per-bug records, spectra, logs and recipes, then results.csv, discarded.csv and\n"
      "summary.md, as one machine would have written them. Refuses a missing or unfinished shard (named),\n"
      "shards of another study or split, and a bug two shards recorded differently. OUT may hold an earlier\n"
      "join (joining again adds what is new) and is an ordinary output directory: `bugset reproduce -o OUT`\n"
      "resumes from it.\n"
      "Example: dlfl bugset join out/shards/0 out/shards/1 out/shards/2 -o out/joined");
  cmd->add_option("SHARD_DIR", o->shards, "The shards' output directories (bugset reproduce --shard I/N -o DIR)")
      ->required();
  cmd->add_option("-o,--out", o->out_dir, "The joined output directory")->required();
  cmd->callback([o] { run_join(*o); });
}

}  // namespace dlfl::cli
