// Live temporaries removed on SIGINT/SIGTERM/SIGHUP, stale ones of dead processes
// removed by the next write (lib/files/temporary_registry.h).
#include "temporary_registry.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "dead_owner.h"
#include "dlfl/files/atomic_file.h"

namespace dlfl::io {
namespace detail {
namespace {

// A fixed table, no allocation: the signal handler may only read it. A slot is claimed
// (kClaimed) while its path is copied in, then published as a file or directory.
constexpr int kFree = 0, kClaimed = 1, kFile = 2, kDirectory = 3;
constexpr std::size_t kSlots = 64;
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
std::array<Slot, kSlots> slots;

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots");

// Empties a directory one level deep and removes it, with async-signal-safe calls only:
// dlfl's output directories hold plain files (GZoltar's txt/, Matrix Market's pieces).
void remove_flat_directory(const char* path) noexcept {
  const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    // getdents64 is a plain system call; opendir/readdir allocate.
    alignas(8) char buffer[4096];
    for (;;) {
      const long n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
      if (n <= 0) break;
      for (long at = 0; at < n;) {
        struct Entry {
          ino64_t ino;
          off64_t off;
          unsigned short reclen;
          unsigned char type;
          char name[1];
        };
        const auto* e = reinterpret_cast<const Entry*>(buffer + at);
        if (std::strcmp(e->name, ".") != 0 && std::strcmp(e->name, "..") != 0) ::unlinkat(fd, e->name, 0);
        at += e->reclen;
      }
    }
    ::close(fd);
  }
  ::rmdir(path);
}

void remove_live_temporaries() noexcept {
  for (auto& slot : slots) {
    const int state = slot.state.load(std::memory_order_acquire);
    if (state == kFile) ::unlink(slot.path);
    else if (state == kDirectory) remove_flat_directory(slot.path);
  }
}

void on_signal(int sig) {
  const int saved = errno;
  remove_live_temporaries();
  // Die of the same signal (SA_RESETHAND restored the default), so the parent sees
  // what happened.
  ::raise(sig);
  errno = saved;
}

}  // namespace

int remember_temporary(const std::filesystem::path& path, TemporaryKind kind) noexcept {
  const std::string& text = path.native();
  if (text.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!slots[i].state.compare_exchange_strong(expected, kClaimed, std::memory_order_acquire)) continue;
    std::memcpy(slots[i].path, text.c_str(), text.size() + 1);
    slots[i].state.store(kind == TemporaryKind::file ? kFile : kDirectory, std::memory_order_release);
    return static_cast<int>(i);
  }
  return -1;
}

void forget_temporary(int slot) noexcept {
  if (slot >= 0) slots[static_cast<std::size_t>(slot)].state.store(kFree, std::memory_order_release);
}

std::string temporary_prefix(const std::string& name) {
  // Room for ".", ".tmp-", a pid (at most 10 digits) "-" and a counter (at most 20).
  constexpr std::size_t kSuffix = 1 + 5 + 10 + 1 + 20;
  constexpr std::size_t kNameMax = NAME_MAX;
  // Appended, not `"." + string`: g++ 12 -O3 warns falsely (-Wrestrict) on the latter.
  std::string prefix = ".";
  if (name.size() + kSuffix <= kNameMax) {
    prefix += name;
  } else {
    // FNV-1a: stable across processes and builds, unlike std::hash.
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const unsigned char c : name) hash = (hash ^ c) * 0x100000001b3ULL;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    prefix.append(name, 0, kNameMax - kSuffix - 17);
    prefix += '~';
    prefix += hex;
  }
  prefix += ".tmp-";
  return prefix;
}

void remove_stale_temporaries(const std::filesystem::path& target) noexcept {
  try {
    // .NAME.tmp-PID-N: anything else with that prefix is not ours.
    const std::filesystem::path parent = target.parent_path().empty() ? "." : target.parent_path();
    remove_owned_by_dead_processes(parent, temporary_prefix(target.filename().string()), "0123456789", false);
  } catch (...) {
    // Cleaning up is a courtesy: a failure here must not stop the write.
  }
}

}  // namespace detail

void remove_temporaries_on_signals() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    if (::sigaction(sig, nullptr, &current) != 0) continue;
    if (current.sa_handler != SIG_DFL) continue;  // ignored, or the program handles it
    struct sigaction sa {};
    sa.sa_handler = detail::on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;  // the re-raised signal then kills at once
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace dlfl::io
