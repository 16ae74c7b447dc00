/* dlfl_rt.c: the coverage runtime: per-test byte maps living in a memory-mapped file.
 *
 * Lives inside the user's test process, so: libc only, no allocation and no lock on the
 * probe path (a probe is one store through __dlfl_map), and nothing to flush: every map
 * byte is written straight into a MAP_SHARED file mapping, which the kernel keeps when the
 * process dies by a signal (SIGSEGV, SIGABRT, SIGKILL from a timeout).
 *
 * Addresses never move: the file is mapped into a large PROT_NONE reservation, and growing
 * it maps the longer file over the same range, so a thread still writing through an old
 * map pointer never faults.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dlfl_rt/dlfl_rt.h"
#include "dlfl_rt/dlfl_rt_file.h"

/* Scratch map used before the file exists and when there is none: virtual memory only,
 * pages are allocated when a probe first touches them. */
#define BOOT_CAPACITY (UINT64_C(1) << 26)
#define INITIAL_SLOTS 64u
#define MAX_FLUSH 256

_Static_assert(sizeof(dlfl_rt_cell) == 1, "a probe map is an array of bytes");

dlfl_rt_cell* __dlfl_map;

static struct {
  int lock;
  unsigned char* boot_map;
  uint64_t probe_count;
  uint64_t map_id;
  int file_failed;  /* creating/growing the file failed: stay on scratch memory */
  int fd;
  pid_t owner;      /* process that created the file (a fork child makes its own) */
  char path[4096];
  unsigned char* base;  /* start of the reservation == file offset 0 */
  uint64_t reserved;    /* bytes reserved */
  uint64_t stride;
  struct dlfl_rt_file_header* header;
  uint32_t running;     /* slot of the running test, 0 = none */
  dlfl_rt_flush_fn flush[MAX_FLUSH];
  int flush_count;
} rt = {.fd = -1};

static void say(const char* format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(text, sizeof text - 1, format, args);
  va_end(args);
  if (n < 0) return;
  if ((size_t)n > sizeof text - 2) n = (int)sizeof text - 2;
  text[n++] = '\n';
  ssize_t ignored = write(2, text, (size_t)n);
  (void)ignored;
}

static void lock(void) {
  while (__atomic_test_and_set(&rt.lock, __ATOMIC_ACQUIRE)) sched_yield();
}
static void unlock(void) { __atomic_clear(&rt.lock, __ATOMIC_RELEASE); }

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * UINT64_C(1000000000) + (uint64_t)t.tv_nsec;
}

static void set_map(unsigned char* map) { __atomic_store_n(&__dlfl_map, (dlfl_rt_cell*)map, __ATOMIC_RELEASE); }
static unsigned char* current_map(void) { return (unsigned char*)__atomic_load_n(&__dlfl_map, __ATOMIC_ACQUIRE); }

static void boot(void) {
  if (rt.boot_map) return;
  void* p = mmap(NULL, BOOT_CAPACITY, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (p == MAP_FAILED) {
    /* Without writable memory behind __dlfl_map the first probe would crash anyway. */
    say("dlfl_rt: cannot reserve the probe map: %s", strerror(errno));
    abort();
  }
  rt.boot_map = p;
  set_map(rt.boot_map);
}

__attribute__((constructor(101))) static void dlfl_rt_boot(void) {
  lock();
  boot();
  unlock();
}

static struct dlfl_rt_slot_header* slot_header(uint32_t slot) {
  return (struct dlfl_rt_slot_header*)(rt.base + rt.header->header_size + (uint64_t)slot * rt.stride);
}
static unsigned char* slot_map(uint32_t slot) {
  return (unsigned char*)slot_header(slot) + DLFL_RT_SLOT_HEADER_SIZE + DLFL_RT_NAME_CAPACITY;
}
static uint64_t file_size(uint64_t slots) { return DLFL_RT_HEADER_SIZE + slots * rt.stride; }

/* A file whose header names another live process belongs to it (a gtest death-test child
 * re-executes the binary with the same environment): then this process writes PATH.PID. */
static int owned_by_other_live_process(int fd) {
  struct dlfl_rt_file_header h;
  if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) return 0;
  if (memcmp(h.magic, DLFL_RT_MAGIC, 8) != 0 || h.pid == getpid() || h.pid <= 0) return 0;
  return kill(h.pid, 0) == 0 || errno == EPERM;
}

static int open_fresh(const char* path) {
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  if (owned_by_other_live_process(fd)) {
    close(fd);
    int n = snprintf(rt.path, sizeof rt.path, "%s.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof rt.path) return -1;
    fd = open(rt.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  } else {
    const int n = snprintf(rt.path, sizeof rt.path, "%s", path);
    if (n < 0 || (size_t)n >= sizeof rt.path) {
      close(fd);
      return -1;
    }
    if (fd >= 0 && ftruncate(fd, 0) != 0) {
      close(fd);
      return -1;
    }
  }
  return fd;
}

/* Reserves address space for the whole file's future: the largest of a few sizes the
 * kernel grants (NORESERVE + PROT_NONE costs no memory). */
static int reserve(uint64_t minimum) {
  const uint64_t sizes[] = {UINT64_C(1) << 40, UINT64_C(1) << 36, UINT64_C(1) << 32, minimum};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    if (sizes[i] < minimum) continue;
    void* p = mmap(NULL, sizes[i], PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      rt.base = p;
      rt.reserved = sizes[i];
      return 0;
    }
  }
  return -1;
}

static int map_file(uint64_t slots) {
  const uint64_t size = file_size(slots);
  if (size > rt.reserved) return -1;
  if (ftruncate(rt.fd, (off_t)size) != 0) return -1;
  void* p = mmap(rt.base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, rt.fd, 0);
  if (p == MAP_FAILED) return -1;
  rt.header = (struct dlfl_rt_file_header*)rt.base;
  rt.header->slot_capacity = slots;
  return 0;
}

/* Creates the snapshot file named by DLFL_RT_FILE with slot 0 holding the coverage reached
 * so far. Returns 0, or -1 when there is no file to write (unset variable or failure). */
static int open_file(void) {
  if (rt.header && rt.owner == getpid()) return 0;
  if (rt.file_failed) return -1;
  const char* path = getenv("DLFL_RT_FILE");
  if (!path || !*path) return -1;
  if (rt.header) {
    /* A fork child must not write slots into its parent's file. */
    rt.header = NULL;
    rt.base = NULL;
    if (rt.fd >= 0) close(rt.fd);
    rt.running = 0;
    char parent[sizeof rt.path];
    memcpy(parent, rt.path, sizeof parent);
    const int n = snprintf(rt.path, sizeof rt.path, "%s.%ld", parent, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof rt.path) rt.file_failed = 1;
    path = NULL;
  }
  if (rt.file_failed) return -1;
  rt.fd = path ? open_fresh(path) : open(rt.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const uint64_t probes = rt.probe_count ? rt.probe_count : 1;
  rt.stride = (DLFL_RT_SLOT_HEADER_SIZE + DLFL_RT_NAME_CAPACITY + probes + 63) / 64 * 64;
  if (rt.fd < 0 || reserve(file_size(INITIAL_SLOTS)) != 0 || map_file(INITIAL_SLOTS) != 0) {
    say("dlfl_rt: cannot create the snapshot file %s: %s (coverage is not recorded)", rt.path,
        strerror(errno));
    rt.file_failed = 1;
    rt.header = NULL;
    return -1;
  }
  rt.owner = getpid();
  struct dlfl_rt_file_header* h = rt.header;
  memcpy(h->magic, DLFL_RT_MAGIC, 8);
  h->version = DLFL_RT_VERSION;
  h->header_size = DLFL_RT_HEADER_SIZE;
  h->probe_count = rt.probe_count;
  h->slot_stride = rt.stride;
  h->map_id = rt.map_id;
  h->pid = (int32_t)rt.owner;
  h->name_capacity = DLFL_RT_NAME_CAPACITY;
  struct dlfl_rt_slot_header* outside = slot_header(0);
  outside->begin_ns = now_ns();
  /* Static initialisation ran on the scratch map (or the parent's slot, after a fork). */
  memcpy(slot_map(0), current_map(), rt.probe_count);
  __atomic_store_n(&outside->state, DLFL_RT_SLOT_OUTSIDE, __ATOMIC_RELEASE);
  __atomic_store_n(&h->slot_count, 1u, __ATOMIC_RELEASE);
  set_map(slot_map(0));
  return 0;
}

static void flush_device_maps(unsigned char* map) {
  for (int i = 0; i < rt.flush_count; ++i) rt.flush[i](map, rt.probe_count);
}

static void end_locked(int outcome) {
  flush_device_maps(slot_map(rt.running));
  struct dlfl_rt_slot_header* s = slot_header(rt.running);
  s->outcome = outcome;
  s->end_ns = now_ns();
  __atomic_store_n(&s->state, DLFL_RT_SLOT_ENDED, __ATOMIC_RELEASE);
  __atomic_store_n(&rt.header->current_slot, 0u, __ATOMIC_RELEASE);
  set_map(slot_map(0));
  rt.running = 0;
}

int dlfl_rt_begin_test(const char* name) {
  lock();
  boot();
  if (open_file() != 0) {
    int result = getenv("DLFL_RT_FILE") && *getenv("DLFL_RT_FILE") ? -1 : 0;
    flush_device_maps(current_map());
    unlock();
    return result;
  }
  if (rt.running) end_locked(DLFL_RT_UNKNOWN);
  flush_device_maps(slot_map(0));
  const uint32_t slot = rt.header->slot_count;
  if (slot >= rt.header->slot_capacity && map_file(rt.header->slot_capacity * 2) != 0) {
    say("dlfl_rt: cannot grow %s beyond %u tests: %s (coverage is not recorded)", rt.path, slot,
        strerror(errno));
    rt.file_failed = 1;
    rt.header = NULL;
    set_map(rt.boot_map);
    unlock();
    return -1;
  }
  struct dlfl_rt_slot_header* s = slot_header(slot);
  const size_t length = name ? strlen(name) : 0;
  const size_t kept = length < DLFL_RT_NAME_CAPACITY - 1 ? length : DLFL_RT_NAME_CAPACITY - 1;
  char* area = (char*)s + DLFL_RT_SLOT_HEADER_SIZE;
  if (kept) memcpy(area, name, kept);
  area[kept] = '\0';
  s->name_length = (uint32_t)length;
  s->begin_ns = now_ns();
  __atomic_store_n(&s->state, DLFL_RT_SLOT_RUNNING, __ATOMIC_RELEASE);
  __atomic_store_n(&rt.header->slot_count, slot + 1, __ATOMIC_RELEASE);
  __atomic_store_n(&rt.header->current_slot, slot, __ATOMIC_RELEASE);
  rt.running = slot;
  set_map(slot_map(slot));
  unlock();
  return 0;
}

int dlfl_rt_end_test(int outcome) {
  lock();
  if (!rt.header || !rt.running || rt.owner != getpid()) {
    if (!rt.header) flush_device_maps(current_map());
    unlock();
    return -1;
  }
  end_locked(outcome);
  unlock();
  return 0;
}

void dlfl_rt_register_probes(uint64_t probe_count, uint64_t map_id) {
  lock();
  boot();
  if (map_id && rt.map_id && map_id != rt.map_id) {
    static int told;
    if (!told++)
      say("dlfl_rt: translation units from different `dlfl instrument` runs are linked together; "
          "their probe ids collide");
  }
  if (!rt.map_id) rt.map_id = map_id;
  if (probe_count > BOOT_CAPACITY) {
    say("dlfl_rt: %llu probes exceed the runtime's capacity of %llu", (unsigned long long)probe_count,
        (unsigned long long)BOOT_CAPACITY);
    abort();
  }
  if (probe_count > rt.probe_count) {
    if (rt.header) {
      /* The slot stride is fixed once the file exists: a larger map would overrun it. */
      say("dlfl_rt: a module with %llu probes was loaded after the first test began (file sized "
          "for %llu); coverage is no longer recorded",
          (unsigned long long)probe_count, (unsigned long long)rt.probe_count);
      rt.file_failed = 1;
      rt.header = NULL;
      rt.running = 0;
      set_map(rt.boot_map);
    }
    rt.probe_count = probe_count;
  }
  unlock();
}

int dlfl_rt_register_flush(dlfl_rt_flush_fn fn) {
  lock();
  int result = -1;
  if (rt.flush_count < MAX_FLUSH) {
    rt.flush[rt.flush_count++] = fn;
    result = 0;
  }
  unlock();
  return result;
}

uint64_t dlfl_rt_probe_count(void) { return rt.probe_count; }

const char* dlfl_rt_file_path(void) { return rt.header ? rt.path : ""; }

unsigned char* dlfl_rt_current_map(void) {
  lock();
  boot();
  unlock();
  return current_map();
}
