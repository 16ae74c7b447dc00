// join_shards(): `dlfl bugset join`: the output directories of the shards of one
// `dlfl bugset reproduce --shard I/N` study (one per job-array task) joined into one output
// directory, as if one machine had reproduced every bug: its results store, spectra, logs
// and recipes, then its tables and summary (run_directory.h). The joined directory is an
// ordinary unsharded one: a later `dlfl bugset reproduce -o OUT` resumes from it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "dlfl/collect/test_source.h"
#include "dlfl/lab/bench/fault_record.h"

namespace dlfl::bench {

// "I/N", as --shard takes it.
std::string shard_name(const collect::Shard& shard);

struct JoinResult {
  std::vector<FaultRecord> records;  // every record of the joined store
  std::size_t shards = 0;            // N
  std::size_t added = 0;             // records the joined store did not hold before
};

// Joins `shard_dirs` (each written by reproduce_bugs with a shard) into `out_dir` (made
// when missing; may hold an earlier join or unsharded run of the same study, whose records
// are kept). Everything is checked before a record or file is copied; throws dlfl::Error naming
// the directory for: a directory that is not a shard's (no configuration or shard file),
// shards of another study (manifest, formulas or top N) or of another count, a shard
// given twice, a shard missing from 0..N-1 ("shard I/N is missing"), a shard whose bugs
// are not all finished (its task failed or is still running; the bugs are named), and a
// bug recorded by two sources (two shards, or a shard and out_dir) whose records disagree
// at the same attempt (a later attempt, `--retry-discarded`, supersedes an earlier one).
// Records agree when they are equal but for the time taken, the machine, the clone's path
// and the output's tail. A bug's spectrum files (spectra/ID.*) and log folder (logs/ID)
// are copied with its record, before it, each atomically, so the joined store never names
// a bug whose files are missing; out_dir's store is appended to (resumable, locked as by
// reproduce_bugs). `out_dir` must not be one of the shards.
JoinResult join_shards(const std::vector<std::filesystem::path>& shard_dirs, const std::filesystem::path& out_dir);

}  // namespace dlfl::bench
