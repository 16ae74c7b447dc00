// What the resumable runs (`dlfl bench`, `dlfl bugset reproduce`) share around their
// results store: the output directory's configuration check, its tables and summary, and
// the workers that take the pending items one at a time.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "dlfl/lab/bench/bench_progress.h"
#include "dlfl/lab/bench/bench_summary.h"
#include "dlfl/lab/bench/fault_record.h"

namespace dlfl::bench {

// `fingerprint` (a JSON document) says what makes stored results comparable. The first
// run writes it to `file`; a later one must bring the same, else dlfl::Error "FILE: the
// output directory holds results of another CONFIGURATION; choose another output directory
// or remove this one" (`configuration` names what differs, e.g. "benchmark configuration
// (subjects, max, seed, formulas or top N differ)"). Also throws for a malformed file.
void check_run_configuration(const std::filesystem::path& file, const std::string& fingerprint,
                             const std::string& configuration);

class ResultsStore;

// Appends the finished record to the store (fsync'd) and reports it to `progress` (may be
// null) as "KEY: kept" or "KEY: REASON". Throws as ResultsStore::append does.
void store_finished(ResultsStore& store, BenchProgress* progress, const FaultRecord& record);

// results.csv, discarded.csv and summary.md (bench_runner.h's names) in `out_dir`, each
// written atomically, records sorted by key.
void write_run_outputs(const std::filesystem::path& out_dir, std::vector<FaultRecord> records,
                       const SummaryOptions& summary);

// Runs work(worker, item) for items 0..count-1 on `workers` threads (worker in
// [0, workers)), each item once, in order of start. Stops starting items when *interrupt
// becomes true or an item throws; the first exception (unless an interrupt explains it)
// is rethrown after every thread has finished.
void run_workers(unsigned workers, std::size_t count, const std::function<void(unsigned, std::size_t)>& work,
                 const std::atomic<bool>* interrupt);

// run_workers between progress->start(count) and progress->finish() (progress may be
// null), catching what it throws: the caller writes its outputs first, then rethrows the
// returned exception (null when none).
std::exception_ptr run_reported_workers(unsigned workers, std::size_t count, BenchProgress* progress,
                                        const std::function<void(unsigned, std::size_t)>& work,
                                        const std::atomic<bool>* interrupt);

}  // namespace dlfl::bench
