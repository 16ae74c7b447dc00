// The results journal of a mutant run: one JSON line per test run, appended as each run
// ends, so a run killed at any moment loses at most the runs in flight and the next run
// reads the rest back instead of repeating them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "dlfl/collect/test_outcome.h"

namespace dlfl::collect::detail {

struct JournalRecord {
  std::uint32_t mutant = 0;  // 0: the original program (a baseline run)
  // Baseline runs: 1, 2; mutant runs: 0. In pytest batches: baseline 4, 5; mutant 3; and
  // each baseline batch's own record, test "", holds in wall_ns the batch's time outside
  // its cases (starting the interpreter, collecting).
  std::uint32_t run = 0;
  std::string test;
  TestOutcome::Kind kind = TestOutcome::Kind::passed;
  std::uint64_t message_hash = 0;  // of the failure message (0: none)
  std::uint64_t wall_ns = 0;
};

// 64-bit FNV-1a of a failure message; 0 for an empty one.
std::uint64_t message_hash(const std::string& message) noexcept;

// Opens `path` for appending, creating it with a header naming `schemata` (the mutants
// manifest's digest). An existing journal is read back: a last line cut short by a kill
// is cut off; a journal of another schemata, or a line that is not a record, throws
// dlfl::Error("PATH:LINE: ...").
class KillJournal {
 public:
  KillJournal(std::filesystem::path path, std::uint64_t schemata);
  ~KillJournal();
  KillJournal(const KillJournal&) = delete;
  KillJournal& operator=(const KillJournal&) = delete;

  // The records read back when the journal was opened.
  const std::vector<JournalRecord>& recorded() const noexcept { return recorded_; }
  // Appends one record (thread-safe; one write(2) per line). Throws dlfl::Error when the
  // write fails.
  void append(const JournalRecord& record);

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::mutex mutex_;
  std::vector<JournalRecord> recorded_;
};

}  // namespace dlfl::collect::detail
