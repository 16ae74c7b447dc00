// ResultsStore: the append-only record of finished faults that makes `dlfl bench`
// resumable. One JSON object per line (results.jsonl); each line is written with one
// write() and fsync'd before the fault counts as done, so a killed run loses at most the
// faults that were running, and a restarted run skips every fault already recorded.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/bench/fault_record.h"

namespace dlfl::bench {

inline constexpr std::string_view kResultsFileName = "results.jsonl";

// The record as one line of JSON (no newline) and back. parse_record throws dlfl::Error
// "SOURCE:LINE: what" for a malformed line or a missing field.
std::string record_to_json(const FaultRecord& record);
FaultRecord parse_record(std::string_view line, const std::string& source, std::size_t line_number);

// Bounds of a store read back (the output directory may be another's, received to resume):
// a store over kMaxResultsStoreBytes is refused before it is read, a line over
// kMaxResultRecordBytes as soon as that much of it is read, a record nested deeper than
// io::kMaxJsonDepth before it is parsed. A record is a few KB (the failing tests' names,
// a test output's tail): 16 MiB is thousands of times that; 1 GiB holds hundreds of
// thousands of faults, more than a run of months measures.
inline constexpr std::size_t kMaxResultRecordBytes = std::size_t{16} << 20;
inline constexpr std::size_t kMaxResultsStoreBytes = std::size_t{1} << 30;

// The complete records of a store, read without opening it for appending (another run's
// store: a torn last line is ignored, nothing is locked or cut), each key's latest attempt. Throws dlfl::Error for an
// unreadable file or a malformed complete line.
std::vector<FaultRecord> read_records(const std::filesystem::path& path);

class ResultsStore {
 public:
  // Opens (creating) the store. Existing records are read; a last line without its
  // newline (the run was killed while writing it) is cut off. Throws dlfl::Error for an
  // unreadable or unwritable file, a malformed complete line, or a store another process
  // holds open (an exclusive flock for the object's lifetime: two benches must not share
  // an output directory).
  explicit ResultsStore(std::filesystem::path path);
  ~ResultsStore();
  ResultsStore(const ResultsStore&) = delete;
  ResultsStore& operator=(const ResultsStore&) = delete;

  // Records read at opening plus those appended since, in file order. Not synchronized
  // with append(): read it when no worker runs.
  // A key's record is its latest attempt: a later line of a higher `attempt` (a retried
  // discard, `dlfl bugset reproduce --retry-discarded`) supersedes the earlier line.
  const std::vector<FaultRecord>& records() const noexcept { return records_; }
  bool contains(const std::string& key) const;
  // The stored record of `key`, or nullptr. Valid until the next append.
  const FaultRecord* find(const std::string& key) const;
  // Appends and fsyncs; thread-safe. Throws dlfl::Error when the write fails; the bytes
  // of a partly written record are then cut off again and every later append throws, so
  // no other record is written after a torn one. A record whose key is already stored
  // with the same or a later attempt is ignored (a fault is never counted twice).
  void append(const FaultRecord& record);
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  bool failed_ = false;  // an append failed: the store takes no more records
  mutable std::mutex mutex_;
  // Stores `record` unless its key holds this or a later attempt; true when stored.
  bool keep(FaultRecord record);

  std::vector<FaultRecord> records_;
  std::map<std::string, std::size_t, std::less<>> index_;  // key -> position in records_
};

}  // namespace dlfl::bench
