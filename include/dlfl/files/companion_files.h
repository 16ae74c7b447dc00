// The companions of a primary output file (a trace's tests sidecar, a matrix's tests and
// elements lists) recorded in the primary by size and content hash, so that a reader of
// a set mixed by an interrupted write (new companions beside the old primary, see
// commit_together) gets one error line instead of wrong data. Used by commit_together and
// by the formats that write companions (lcov, Matrix Market); not a user's API.
#pragma once

#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

#include "dlfl/files/atomic_file.h"

namespace dlfl::io::detail {

// Follows the format's comment mark in the primary: `# dlfl companion RECORD` (lcov),
// `% dlfl companion RECORD` (Matrix Market).
inline constexpr std::string_view kCompanionTag = "dlfl companion ";

// RECORD for `companion`, finished (AtomicFile::finish) but not yet committed:
// `SUFFIX SIZE XXH3` where SUFFIX replaces the primary's extension to name the companion
// (".tests.csv"; so renaming both files keeps the record true), SIZE is in bytes and
// XXH3 the 64-bit XXH3 of the content in 16 hex digits. Empty for a companion written
// directly (a device): there is nothing to check then. Throws dlfl::Error when the
// temporary cannot be read back.
std::string companion_record(const AtomicFile& companion, std::string_view suffix);

// Checks RECORD, found on line `line` of `primary`, against the file it names beside
// `primary` and returns the file to read: that one, or the previous companion that an
// interrupted write kept (previous_companion_path) when that is the one recorded. Throws
// dlfl::Error(primary, line, "...") in one line when the record is malformed, names a
// SUFFIX not in `known`, or neither file has the recorded size and hash.
std::filesystem::path check_companion(const std::filesystem::path& primary, std::size_t line,
                                      std::string_view record, std::initializer_list<std::string_view> known);

// Where commit_together keeps a companion's previous content while the set is renamed:
// `.NAME.prev-XXH3` beside it, XXH3 that content's digest as in the record.
std::filesystem::path previous_companion_path(const std::filesystem::path& companion, std::string_view digest);

// The 16-hex-digit XXH3 of `bytes`, as records write it.
std::string companion_digest(std::string_view bytes);

// Called by commit_together between renaming the companions and the primary (tests
// simulate a kill there); null in normal runs.
extern void (*after_companions_committed)();

}  // namespace dlfl::io::detail
