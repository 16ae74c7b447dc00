// AtomicFile and AtomicDirectory: outputs that appear complete or not at all.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <memory>
#include <ostream>

namespace dlfl::io {

// Writes a file through a temporary sibling (`.NAME.tmp-PID-N` in the target's directory,
// so the final rename stays on one file system and is atomic) and renames it over the
// target on commit(). Readers of the target see the old content or the new, never a mix.
//
//   AtomicFile out("ranking.csv");
//   out.stream() << ...;
//   out.commit();          // flush + fsync + rename; throws dlfl::Error on any failure
//
// Destroying an AtomicFile that was not committed (an exception on the way, a failed
// commit) removes the temporary file and leaves the target untouched; so does SIGINT,
// SIGTERM or SIGHUP once remove_temporaries_on_signals() was called. Temporaries that
// a killed or crashed process left (SIGKILL, a power cut) are removed by the next
// AtomicFile or AtomicDirectory for the same target, when their process is gone. The
// temporary's name part is shortened (with a hash of the whole name) where the name is
// so long that `.NAME.tmp-PID-N` would pass NAME_MAX.
//
// A target that exists and is neither a regular file nor a directory — /dev/null, a
// FIFO, a terminal, or a symlink to one — is opened and written directly, with no
// temporary and no rename (a rename would replace the device by a regular file); there
// commit() only flushes and closes. Not thread-safe; movable, not copyable.
class AtomicFile {
 public:
  // Creates the temporary file with mode 0666 & ~umask (or opens a special target; for a
  // FIFO that waits for a reader). Throws dlfl::Error(target, 0, "...") when it cannot be
  // created (parent missing, not writable, ...).
  explicit AtomicFile(std::filesystem::path target);
  AtomicFile(AtomicFile&&) noexcept;
  AtomicFile& operator=(AtomicFile&&) noexcept;
  ~AtomicFile();

  // The stream to write to; binary (no newline translation), buffered. Write errors
  // (e.g. a full disk) are sticky and reported by commit(), with the errno text.
  std::ostream& stream();

  // Flushes, checks every write succeeded, fsyncs and closes; the file is then complete
  // under temp_path() and commit() only renames it. Throws dlfl::Error(target, 0, "...")
  // on failure, after removing the temporary file. For outputs of several files
  // (commit_together) and for reading back what was written. Once finished, a no-op.
  void finish();

  // finish() unless done, then renames the temporary file over the target. Throws
  // dlfl::Error(target, 0, "...") on failure, after removing the temporary file. Calling
  // it twice is an error.
  void commit();

  const std::filesystem::path& target() const noexcept;
  // The temporary file being written (empty after commit or discard, and for a special
  // target written directly).
  const std::filesystem::path& temp_path() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Commits the files of one output (a primary file and its companions, e.g. a trace and
// its tests sidecar): finishes all of them, so that a write error leaves every previous
// file in place, then keeps each companion's previous content as `.NAME.prev-DIGEST`
// (a hard link), renames the companions and the primary last, and removes the kept
// copies. A process killed between the renames leaves new companions beside the old
// primary; a primary that records its companions' digests (include/dlfl/files/companion_files.h)
// reads the kept copies then, so readers see the old set or the new one. Throws
// dlfl::Error like commit(); the files not yet renamed are then discarded.
void commit_together(std::initializer_list<AtomicFile*> companions, AtomicFile& primary);

// Builds a directory (e.g. a GZoltar `txt/` output) in a temporary sibling directory and
// renames it into place on commit(). An existing target directory is swapped out
// atomically (Linux renameat2 RENAME_EXCHANGE; elsewhere two renames with a short window
// where the target is missing) and then deleted.
//
// To never destroy unrelated data, commit() refuses (dlfl::Error) to replace an existing
// directory that holds any entry the new directory does not also have — e.g. writing a
// spectrum "into" a source tree fails instead of deleting it — and refuses to replace a
// target that is not a directory. Destroying an uncommitted AtomicDirectory removes the
// temporary directory and everything in it. Not thread-safe; movable, not copyable.
class AtomicDirectory {
 public:
  // Creates the temporary directory (mode 0777 & ~umask). Throws dlfl::Error when the
  // parent does not exist or is not writable.
  explicit AtomicDirectory(std::filesystem::path target);
  AtomicDirectory(AtomicDirectory&&) noexcept;
  AtomicDirectory& operator=(AtomicDirectory&&) noexcept;
  ~AtomicDirectory();

  // Where to write the directory's files (plain files, or AtomicFiles for error checks).
  const std::filesystem::path& temp_path() const noexcept;
  const std::filesystem::path& target() const noexcept;

  // Moves the finished directory into place. Throws dlfl::Error(target, 0, "...") on
  // failure, after removing the temporary directory; the old target is then intact.
  void commit();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Installs handlers for SIGINT, SIGTERM and SIGHUP (where the disposition is still the
// default) that remove the temporaries of every live AtomicFile and AtomicDirectory,
// then let the signal kill the process as before. For programs (dlfl's main calls it);
// a program with its own handlers keeps them, and its unwinding removes temporaries.
void remove_temporaries_on_signals();

}  // namespace dlfl::io
