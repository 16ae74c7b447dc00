// AtomicFile and AtomicDirectory: write to a temporary sibling, rename into place.
#include "dlfl/files/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <initializer_list>
#include <atomic>
#include <cerrno>
#include <cstdio>  // rename, renameat2 (glibc >= 2.28 with _GNU_SOURCE)
#include <string>
#include <system_error>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/files/text_file.h"
#include "dlfl/files/companion_files.h"
#include "dlfl/files/tree_removal.h"
#include "temporary_registry.h"

namespace dlfl::io {
namespace fs = std::filesystem;

namespace {

std::string errno_text(int err) { return std::system_category().message(err); }

// `out/` names the directory `out`: drop the empty last component.
fs::path normalized(fs::path target) {
  if (target.has_filename()) return target;
  return target.parent_path();
}

fs::path parent_of(const fs::path& target) {
  fs::path parent = target.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// A name no other writer uses: pid + a process-wide counter; callers retry on EEXIST
// (a stale temporary of a crashed process with a recycled pid).
fs::path temp_sibling(const fs::path& target) {
  static std::atomic<unsigned long> counter{0};
  std::string name = detail::temporary_prefix(target.filename().string());
  name += std::to_string(::getpid());
  name += '-';
  name += std::to_string(counter++);
  return parent_of(target) / name;
}

// A buffered streambuf over a file descriptor. Unlike std::ofstream it keeps the errno of
// a failed write(2) (ENOSPC, EIO) for the error message, and it can fsync before rename.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd), buffer_(1 << 16) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int error() const noexcept { return error_; }
  bool flush_all() { return write_out(pbase(), static_cast<std::size_t>(pptr() - pbase())); }

 protected:
  int_type overflow(int_type ch) override {
    if (!flush_all()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n >= static_cast<std::streamsize>(buffer_.size())) {
      // Large writes (native format arrays) bypass the buffer.
      if (!flush_all() || !write_out(s, static_cast<std::size_t>(n))) return 0;
      return n;
    }
    return std::streambuf::xsputn(s, n);
  }
  int sync() override { return flush_all() ? 0 : -1; }
  // Seeking (the native writer puts its checksum into the header last) flushes first.
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
    if (!flush_all()) return pos_type(off_type(-1));
    const int whence = dir == std::ios_base::beg ? SEEK_SET : dir == std::ios_base::cur ? SEEK_CUR : SEEK_END;
    const off_t at = ::lseek(fd_, static_cast<off_t>(off), whence);
    if (at < 0) return pos_type(off_type(-1));
    position_ = at;
    written_back_ = std::min(written_back_, at);
    return pos_type(static_cast<off_type>(at));
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }

 private:
  bool write_out(const char* data, std::size_t size) {
    if (error_ != 0) return false;
    while (size > 0) {
      const ssize_t n = ::write(fd_, data, size);
      if (n < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return false;
      }
      data += n;
      size -= static_cast<std::size_t>(n);
      position_ += n;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    start_writeback();
    return true;
  }
  // Large outputs: the disk starts on each 8 MiB as soon as it is written, so that the
  // fsync before the rename waits for the last few MiB only, not for the whole file
  // (a 400 MB merged spectrum: 0.57 -> 0.49 s). It only starts the writeback, and its
  // failure is no error: fsync still writes and checks everything.
  void start_writeback() noexcept {
    constexpr off_t kChunk = off_t{8} << 20;
    if (position_ - written_back_ < kChunk) return;
#ifdef __linux__
    ::sync_file_range(fd_, written_back_, position_ - written_back_, SYNC_FILE_RANGE_WRITE);
#endif
    written_back_ = position_;
  }

  int fd_;
  int error_ = 0;
  off_t position_ = 0;      // the file offset the next write goes to
  off_t written_back_ = 0;  // writeback started for [0, written_back_)
  std::vector<char> buffer_;
};

}  // namespace

// ---------------------------------------------------------------------------------------

struct AtomicFile::State {
  fs::path target;
  fs::path temp;  // empty when writing to the target itself (a device or FIFO)
  int fd = -1;
  FdBuf buf;
  std::ostream stream;
  bool finished = false, committed = false;
  int slot;  // in the registry of live temporaries

  State(fs::path target_, fs::path temp_, int fd_, int slot_)
      : target(std::move(target_)), temp(std::move(temp_)), fd(fd_), buf(fd_), stream(&buf), slot(slot_) {}

  void discard() noexcept {
    if (fd >= 0) ::close(fd);
    fd = -1;
    if (!temp.empty()) ::unlink(temp.c_str());
    temp.clear();
    detail::forget_temporary(slot);
    slot = -1;
  }
  ~State() { discard(); }
};

namespace {

// A target that exists and is neither a regular file nor a directory (/dev/null, a FIFO,
// a terminal, or a symlink to one): writing it means opening it, since a rename would
// replace the device by a regular file (root may rename over /dev/null). Nothing else can
// be atomic for such a target anyway.
bool is_special_target(const fs::path& target) {
  struct stat st {};
  return ::stat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

}  // namespace

AtomicFile::AtomicFile(fs::path target) {
  target = normalized(std::move(target));
  if (is_special_target(target)) {
    // No O_TRUNC: a device or FIFO has no content to drop, and O_TRUNC on a symlink to a
    // regular file swapped in meanwhile would be the one destructive open.
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw Error(target.string(), 0, "cannot open for writing: " + errno_text(errno));
    state_ = std::make_unique<State>(std::move(target), fs::path(), fd, -1);
    return;
  }
  detail::remove_stale_temporaries(target);
  for (int attempt = 0;; ++attempt) {
    fs::path temp = temp_sibling(target);
    // Recorded before it exists, so a signal between open() and the record cannot leave it.
    const int slot = detail::remember_temporary(temp, detail::TemporaryKind::file);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      // A rewritten output keeps the mode its owner gave it (a 0600 report stays 0600).
      struct stat existing;
      if (::stat(target.c_str(), &existing) == 0 && S_ISREG(existing.st_mode))
        (void)::fchmod(fd, existing.st_mode & 07777);
      state_ = std::make_unique<State>(std::move(target), std::move(temp), fd, slot);
      return;
    }
    const int err = errno;
    detail::forget_temporary(slot);
    errno = err;
    if (errno == EEXIST && attempt < 100) continue;
    throw Error(target.string(), 0,
                "cannot create a file in '" + parent_of(target).string() + "': " + errno_text(errno));
  }
}

AtomicFile::AtomicFile(AtomicFile&&) noexcept = default;
AtomicFile& AtomicFile::operator=(AtomicFile&&) noexcept = default;
AtomicFile::~AtomicFile() = default;

std::ostream& AtomicFile::stream() { return state_->stream; }
const fs::path& AtomicFile::target() const noexcept { return state_->target; }
const fs::path& AtomicFile::temp_path() const noexcept { return state_->temp; }

void AtomicFile::finish() {
  State& s = *state_;
  const std::string target = s.target.string();
  if (s.finished) return;
  if (s.fd < 0) throw Error(target, 0, "output already committed or discarded");
  auto fail = [&](const std::string& what, int err) {
    s.discard();
    throw Error(target, 0, what + (err ? ": " + errno_text(err) : std::string()));
  };
  s.stream.flush();
  if (s.buf.error() != 0) fail("cannot write", s.buf.error());
  if (!s.stream) fail("cannot write (stream error)", 0);
  // Without fsync a crash after the rename can leave an empty file under the new name
  // on some file systems: the rename would be durable before the data. A device or FIFO
  // written directly has nothing to make durable (fsync fails there with EINVAL).
  if (!s.temp.empty() && ::fsync(s.fd) != 0) fail("cannot write (fsync)", errno);
  const int fd = s.fd;
  s.fd = -1;
  if (::close(fd) != 0) fail("cannot write (close)", errno);
  s.finished = true;
}

void AtomicFile::commit() {
  State& s = *state_;
  if (s.committed) throw Error(s.target.string(), 0, "output already committed or discarded");
  if (!s.finished) finish();
  if (!s.temp.empty() && std::rename(s.temp.c_str(), s.target.c_str()) != 0) {
    const int err = errno;
    s.discard();
    throw Error(s.target.string(), 0, "cannot replace the file: " + errno_text(err));
  }
  s.temp.clear();
  detail::forget_temporary(s.slot);
  s.slot = -1;
  s.committed = true;
}

void commit_together(std::initializer_list<AtomicFile*> companions, AtomicFile& primary) {
  // Everything written and durable before the first rename: a failure (a full disk) then
  // leaves the previous set whole.
  for (AtomicFile* c : companions) c->finish();
  primary.finish();
  // Each companion's previous content stays reachable (a hard link named by its digest)
  // until the primary is renamed: a kill in between leaves the old primary, which finds
  // the companion it was written with there (check_companion), so readers see the old set
  // until the next write completes and the new set after.
  for (AtomicFile* c : companions) {
    if (c->temp_path().empty()) continue;  // written in place (a device)
    std::error_code ec;
    if (!fs::is_regular_file(c->target(), ec)) continue;
    const fs::path previous =
        detail::previous_companion_path(c->target(), detail::companion_digest(read_file_bytes(c->target())));
    if (!fs::exists(previous, ec) && ::link(c->target().c_str(), previous.c_str()) != 0)
      throw Error(c->target().string(), 0, "cannot keep the previous file while the set is replaced: " + errno_text(errno));
  }
  for (AtomicFile* c : companions) c->commit();
  if (detail::after_companions_committed) detail::after_companions_committed();
  primary.commit();
  // The new set is whole: no primary refers to a kept companion any more.
  for (AtomicFile* c : companions) {
    std::string prefix = ".";  // appended, not `"." + name + ...`: g++ 12 -O3 warns falsely there
    prefix += c->target().filename().string();
    prefix += ".prev-";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent_of(c->target()), ec))
      if (entry.path().filename().string().starts_with(prefix)) fs::remove(entry.path(), ec);
  }
}

// ---------------------------------------------------------------------------------------

struct AtomicDirectory::State {
  fs::path target;
  fs::path temp;
  bool committed = false;
  int slot = -1;  // in the registry of live temporaries

  void forget() noexcept {
    detail::forget_temporary(slot);
    slot = -1;
  }
  void discard() noexcept {
    if (temp.empty()) return;
    remove_tree_quietly(temp);
    temp.clear();
    forget();
  }
  ~State() { discard(); }
};

AtomicDirectory::AtomicDirectory(fs::path target) : state_(std::make_unique<State>()) {
  target = normalized(std::move(target));
  detail::remove_stale_temporaries(target);
  for (int attempt = 0;; ++attempt) {
    fs::path temp = temp_sibling(target);
    state_->slot = detail::remember_temporary(temp, detail::TemporaryKind::directory);  // before it exists
    if (::mkdir(temp.c_str(), 0777) == 0) {
      state_->target = std::move(target);
      state_->temp = std::move(temp);
      return;
    }
    const int err = errno;
    state_->forget();
    errno = err;
    if (errno == EEXIST && attempt < 100) continue;
    throw Error(target.string(), 0,
                "cannot create a directory in '" + parent_of(target).string() +
                    "': " + errno_text(errno));
  }
}

AtomicDirectory::AtomicDirectory(AtomicDirectory&&) noexcept = default;
AtomicDirectory& AtomicDirectory::operator=(AtomicDirectory&&) noexcept = default;
AtomicDirectory::~AtomicDirectory() = default;

const fs::path& AtomicDirectory::temp_path() const noexcept { return state_->temp; }
const fs::path& AtomicDirectory::target() const noexcept { return state_->target; }

namespace {

// Swaps two existing paths atomically where the kernel can; otherwise moves the old one
// aside, moves the new one in and restores the old one when that fails. Afterwards
// `fresh` names the old content.
void exchange(const fs::path& fresh, const fs::path& target, const std::string& label) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
  if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) return;
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
    throw Error(label, 0, "cannot replace the directory: " + errno_text(errno));
#endif
  const fs::path aside = temp_sibling(target);
  if (std::rename(target.c_str(), aside.c_str()) != 0)
    throw Error(label, 0, "cannot move the old directory aside: " + errno_text(errno));
  if (std::rename(fresh.c_str(), target.c_str()) != 0) {
    const int err = errno;
    std::rename(aside.c_str(), target.c_str());
    throw Error(label, 0, "cannot replace the directory: " + errno_text(err));
  }
  if (std::rename(aside.c_str(), fresh.c_str()) != 0) {
    remove_tree_quietly(aside);
  }
}

}  // namespace

void AtomicDirectory::commit() {
  State& s = *state_;
  const std::string label = s.target.string();
  if (s.committed || s.temp.empty()) throw Error(label, 0, "output already committed or discarded");
  auto fail = [&](const std::string& what) {
    s.discard();
    throw Error(label, 0, what);
  };
  struct stat st {};
  if (::lstat(s.target.c_str(), &st) != 0) {
    if (errno != ENOENT) fail("cannot inspect the output path: " + errno_text(errno));
    if (std::rename(s.temp.c_str(), s.target.c_str()) != 0)
      fail("cannot move the directory into place: " + errno_text(errno));
    s.temp.clear();
    s.forget();
    s.committed = true;
    return;
  }
  if (!S_ISDIR(st.st_mode)) fail("exists and is not a directory; refusing to replace it");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(s.target, ec)) {
    if (!fs::exists(fs::symlink_status(s.temp / entry.path().filename())))
      fail("refusing to replace the directory: it holds '" + entry.path().filename().string() +
           "', which this output does not write");
  }
  if (ec) fail("cannot list the existing directory: " + ec.message());
  try {
    exchange(s.temp, s.target, label);
  } catch (...) {
    s.discard();
    throw;
  }
  s.discard();  // `temp` now holds the previous content
  s.committed = true;
}

}  // namespace dlfl::io
