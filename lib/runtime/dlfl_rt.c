/* dlfl_rt.c: the coverage runtime: a live byte map per process in a memory-mapped file,
 * compacted into a record of hit probe ids when a test ends (layout: dlfl_rt_file.h).
 *
 * Lives inside the user's test process, so: libc only, no allocation and no lock on the
 * probe path (a probe is one store through __dlfl_map), and nothing to flush on a crash:
 * the outside and live maps are MAP_SHARED views of the file, which the kernel keeps when
 * the process dies by a signal (SIGSEGV, SIGABRT, SIGKILL from a timeout). Ending a test
 * uses only async-signal-safe calls (pwrite, memset, atomics) on memory set up when the
 * file was created.
 *
 * The maps never move once the file exists: a thread still writing through an old map
 * pointer writes into the outside or the live map, never out of bounds.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dlfl_rt/dlfl_rt.h"
#include "dlfl_rt/dlfl_rt_file.h"

/* DLFL_RT_SCALAR_SCAN: the portable scan only (the tests build it so, as CPUs without AVX2
 * run it). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DLFL_RT_SCALAR_SCAN)
#include <immintrin.h>
#define DLFL_RT_AVX2_SCAN 1
#endif

/* Scratch map used before the file exists and when there is none: virtual memory only,
 * pages are allocated when a probe first touches them. */
#define BOOT_CAPACITY (UINT64_C(1) << 26)
#define MAX_FLUSH 256
/* atexit registrations of flush_at_exit: each costs an entry in libc's list. */
#define MAX_EXIT_ARMS 1024
#define LIVE_HEADER_OFFSET 2048u
#define PAGE UINT64_C(4096)
#define STAGE_BYTES 65536u
/* Images (the program, shared libraries, Python extension modules) told apart in
 * dlfl_rt_image(): more register probes only in unusual programs. */
#define MAX_IMAGES 64
#define IMAGE_PATH_BYTES 1024

_Static_assert(sizeof(dlfl_rt_cell) == 1, "a probe map is an array of bytes");
_Static_assert(LIVE_HEADER_OFFSET + DLFL_RT_SLOT_HEADER_SIZE + DLFL_RT_NAME_CAPACITY <= DLFL_RT_HEADER_SIZE,
               "the live slot fits in the header area");

dlfl_rt_cell* __dlfl_map;

static struct {
  int lock;
  int avx2; /* the CPU has AVX2: reached_ids_avx2 */
  unsigned char* boot_map;
  uint64_t probe_count;
  uint64_t map_id;
  int file_failed;   /* creating/writing the file failed: stay on scratch memory */
  int whole_process; /* DLFL_RT_TEST: the whole process is one test */
  int fd;
  pid_t owner;       /* process that created the file (a fork child makes its own) */
  char path[4096];
  unsigned char* base; /* the file's fixed part, mapped: header + outside + live map */
  uint64_t mapped;
  struct dlfl_rt_file_header* header;
  struct dlfl_rt_slot_header* live;
  unsigned char* outside_map;
  unsigned char* live_map;
  uint32_t* ids;         /* scratch: probe_count ids, for compacting the live map */
  unsigned char* bitset; /* scratch: probe_count bits */
  uint32_t running;      /* ordinal of the running test, 0 = none */
  uint32_t last_ordinal;
  dlfl_rt_flush_fn flush[MAX_FLUSH];
  int flush_count;
  int exit_arms;    /* times flush_at_exit was registered */
  int exit_flushed; /* flush_at_exit ran */
  /* Record bytes on their way into the file: one pwrite per STAGE_BYTES. */
  unsigned char stage[STAGE_BYTES];
  uint32_t staged;
  uint64_t write_at;
  struct {
    const void* base; /* dli_fbase: tells images apart without comparing paths */
    uint64_t map_id;
    char path[IMAGE_PATH_BYTES];
  } images[MAX_IMAGES];
  uint32_t image_count;
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

static uint64_t round_up(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

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
#ifdef DLFL_RT_AVX2_SCAN
  __builtin_cpu_init(); /* boot may run in a constructor before libgcc's own */
  rt.avx2 = __builtin_cpu_supports("avx2");
#endif
}

static const char* env_file(void) {
  const char* path = getenv("DLFL_RT_FILE");
  return path && *path ? path : NULL;
}

static const char* env_test(void) {
  const char* name = getenv("DLFL_RT_TEST");
  return name && *name ? name : NULL;
}

/* The MPI rank + 1 when an MPI launcher started this process (Open MPI, MPICH/Hydra and
 * PMIx set one of these), else 0. */
static uint32_t env_mpi_rank_plus_one(void) {
  static const char* const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    const char* value = getenv(names[i]);
    if (!value || *value < '0' || *value > '9') continue;
    char* end = NULL;
    const unsigned long rank = strtoul(value, &end, 10);
    if (*end == '\0' && rank < 0xfffffffful) return (uint32_t)rank + 1;
  }
  return 0;
}

/* "PREFIX.PID" (and "PREFIX.PID-N" when taken: a reused pid) created exclusively. */
static int create_numbered(const char* prefix) {
  for (int n = 0; n < 100; ++n) {
    const int length = n == 0 ? snprintf(rt.path, sizeof rt.path, "%s.%ld", prefix, (long)getpid())
                              : snprintf(rt.path, sizeof rt.path, "%s.%ld-%d", prefix, (long)getpid(), n);
    if (length < 0 || (size_t)length >= sizeof rt.path) {
      errno = ENAMETOOLONG;
      return -1;
    }
    const int fd = open(rt.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

/* The file named by DLFL_RT_FILE, unless a live process holds it (a gtest death-test child
 * re-executes the binary with the same environment; several MPI ranks or pytest-xdist
 * workers share it): then PATH.PID. The holder keeps an flock on it for its lifetime, which
 * the kernel drops when the holder dies, so a stale file is reused, never a live one. */
static int open_shared(const char* path) {
  const int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    close(fd);
    return create_numbered(path);
  }
  const int n = snprintf(rt.path, sizeof rt.path, "%s", path);
  if (n < 0 || (size_t)n >= sizeof rt.path || ftruncate(fd, 0) != 0) {
    close(fd);
    if (n >= 0 && (size_t)n >= sizeof rt.path) errno = ENAMETOOLONG;
    return -1;
  }
  return fd;
}

static void* map_anonymous(uint64_t bytes) {
  void* p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static void stop_recording(void) {
  rt.file_failed = 1;
  rt.header = NULL;
  rt.running = 0;
  set_map(rt.boot_map);
}

static void start_test_locked(const char* name);

/* Creates the snapshot file with the coverage reached so far in the outside map (or, for
 * a whole-process test, in the live map). Returns 0, or -1 when there is no file to write
 * (no DLFL_RT_FILE, or creating it failed: said once). */
static int open_file(void) {
  if (rt.header && rt.owner == getpid()) return 0;
  if (rt.file_failed) return -1;
  const char* path = env_file();
  if (!path) return -1;
  unsigned char* inherited = current_map();
  if (rt.header) {
    /* A fork child must not write tests into its parent's file: PARENT_FILE.PID. */
    char parent[sizeof rt.path];
    memcpy(parent, rt.path, sizeof parent);
    rt.header = NULL;
    if (rt.fd >= 0) close(rt.fd);
    rt.running = 0;
    rt.fd = create_numbered(parent);
  } else {
    rt.whole_process = env_test() != NULL;
    rt.fd = rt.whole_process ? create_numbered(path) : open_shared(path);
  }
  const uint64_t probes = rt.probe_count;
  const uint64_t map_bytes = round_up(probes ? probes : 1, PAGE);
  const uint64_t records_offset = DLFL_RT_HEADER_SIZE + 2 * map_bytes;
  void* base = MAP_FAILED;
  if (rt.fd >= 0 && ftruncate(rt.fd, (off_t)records_offset) == 0)
    base = mmap(NULL, records_offset, PROT_READ | PROT_WRITE, MAP_SHARED, rt.fd, 0);
  if (!rt.ids) rt.ids = map_anonymous(probes * sizeof(uint32_t));
  if (!rt.bitset) rt.bitset = map_anonymous((probes + 7) / 8);
  if (base == MAP_FAILED || !rt.ids || !rt.bitset) {
    say("dlfl_rt: cannot create the snapshot file %s: %s (coverage is not recorded)", rt.path, strerror(errno));
    stop_recording();
    return -1;
  }
  rt.base = base;
  rt.mapped = records_offset;
  rt.owner = getpid();
  struct dlfl_rt_file_header* h = (struct dlfl_rt_file_header*)rt.base;
  memcpy(h->magic, DLFL_RT_MAGIC, 8);
  h->version = DLFL_RT_VERSION;
  h->header_size = DLFL_RT_HEADER_SIZE;
  h->probe_count = probes;
  h->map_id = rt.map_id;
  h->pid = (int32_t)rt.owner;
  h->flags = rt.whole_process ? DLFL_RT_FLAG_WHOLE_PROCESS : 0;
  h->name_capacity = DLFL_RT_NAME_CAPACITY;
  h->live_header_offset = LIVE_HEADER_OFFSET;
  h->outside_offset = DLFL_RT_HEADER_SIZE;
  h->live_offset = DLFL_RT_HEADER_SIZE + map_bytes;
  h->records_offset = records_offset;
  h->record_count = 0;
  h->records_end = records_offset;
  h->mpi_rank_plus_one = env_mpi_rank_plus_one();
  rt.live = (struct dlfl_rt_slot_header*)(rt.base + LIVE_HEADER_OFFSET);
  rt.outside_map = rt.base + h->outside_offset;
  rt.live_map = rt.base + h->live_offset;
  rt.last_ordinal = 0;
  rt.header = h;
  /* What ran before (static initialisation on the scratch map, or the parent's test
   * after a fork) goes where this process's coverage goes now. */
  if (rt.whole_process) {
    memcpy(rt.live_map, inherited, probes);
    start_test_locked(env_test());
  } else {
    memcpy(rt.outside_map, inherited, probes);
    set_map(rt.outside_map);
  }
  return 0;
}

static void flush_device_maps(unsigned char* map) {
  for (int i = 0; i < rt.flush_count; ++i) rt.flush[i](map, rt.probe_count);
}

/* A whole-process test gets no end of test: at a normal exit (return from main, exit())
 * the device maps are copied into its live map here. Not on a crash: this runtime has no
 * signal handler, and must not copy from one (CUDA calls are not async-signal-safe and the
 * context may be broken), so a crashed test keeps the host coverage and the device
 * coverage up to the last flush only. (A foreign handler that calls exit() on a crash
 * would run this from the signal; dlfl collect --runtime preloads none.) Fork children
 * skip it: the parent's CUDA context is not theirs. */
static void flush_at_exit(void) {
  lock();
  if (!rt.exit_flushed && rt.whole_process && rt.header && rt.owner == getpid()) {
    rt.exit_flushed = 1;
    flush_device_maps(rt.live_map);
  }
  unlock();
}

/* Registers flush_at_exit (again): atexit runs the latest registration first, so it runs
 * before every exit handler registered until now, the CUDA runtime's teardown and a
 * module's unregistration included, while the device maps still exist; the older
 * registrations find the work done. Outside the lock: atexit may allocate. */
static void arm_exit_flush(void) {
  if (__atomic_fetch_add(&rt.exit_arms, 1, __ATOMIC_RELAXED) < MAX_EXIT_ARMS) (void)atexit(flush_at_exit);
}

/* Appends `bytes` to the record being written; 0 or -1 (write failed). */
static int stage(const void* data, uint64_t bytes) {
  const unsigned char* p = data;
  while (bytes) {
    uint64_t n = STAGE_BYTES - rt.staged;
    if (n > bytes) n = bytes;
    if (p) memcpy(rt.stage + rt.staged, p, n);
    else memset(rt.stage + rt.staged, 0, n);
    rt.staged += (uint32_t)n;
    bytes -= n;
    if (p) p += n;
    if (rt.staged == STAGE_BYTES) {
      if (pwrite(rt.fd, rt.stage, rt.staged, (off_t)rt.write_at) != (ssize_t)rt.staged) return -1;
      rt.write_at += rt.staged;
      rt.staged = 0;
    }
  }
  return 0;
}

static int stage_flush(void) {
  if (rt.staged && pwrite(rt.fd, rt.stage, rt.staged, (off_t)rt.write_at) != (ssize_t)rt.staged) return -1;
  rt.write_at += rt.staged;
  rt.staged = 0;
  return 0;
}

/* Appends the ids of the reached probes in [from, to) to rt.ids[hits..]; the new count. */
static uint64_t reached_in(const unsigned char* map, uint64_t from, uint64_t to, uint64_t hits) {
  for (uint64_t j = from; j < to; ++j)
    if (map[j]) rt.ids[hits++] = (uint32_t)j;
  return hits;
}

#ifdef DLFL_RT_AVX2_SCAN
/* As below, 128 bytes per step with one vptest: this scan of the whole map at every test's
 * end is the runtime's main cost for small tests (168,000 probes: ~3.7 us scalar, ~1.9 us
 * with AVX2). Chosen at boot when the CPU has AVX2. */
__attribute__((target("avx2"))) static uint64_t reached_ids_avx2(const unsigned char* map, uint64_t n) {
  uint64_t hits = 0, i = 0;
  for (; i + 128 <= n; i += 128) {
    const __m256i a = _mm256_loadu_si256((const __m256i*)(const void*)(map + i));
    const __m256i b = _mm256_loadu_si256((const __m256i*)(const void*)(map + i + 32));
    const __m256i c = _mm256_loadu_si256((const __m256i*)(const void*)(map + i + 64));
    const __m256i d = _mm256_loadu_si256((const __m256i*)(const void*)(map + i + 96));
    const __m256i any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
    if (!_mm256_testz_si256(any, any)) hits = reached_in(map, i, i + 128, hits);
  }
  return reached_in(map, i, n, hits);
}
#endif

/* The ids of the live map's reached probes into rt.ids, ascending; returns how many.
 * Reads 64 bytes at a time: most of a large map is zero. */
static uint64_t reached_ids(void) {
  const unsigned char* map = rt.live_map;
  const uint64_t n = rt.probe_count;
#ifdef DLFL_RT_AVX2_SCAN
  if (rt.avx2) return reached_ids_avx2(map, n);
#endif
  uint64_t hits = 0, i = 0;
  for (; i + 64 <= n; i += 64) {
    uint64_t w[8];
    memcpy(w, map + i, sizeof w);
    if ((w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]) != 0) hits = reached_in(map, i, i + 64, hits);
  }
  return reached_in(map, i, n, hits);
}

/* Saves the running test as a record, then frees and clears the live slot. */
static void end_locked(int outcome) {
  flush_device_maps(rt.live_map);
  const uint64_t end = now_ns();
  const uint64_t hits = reached_ids();
  const uint64_t bitset_bytes = (rt.probe_count + 7) / 8;
  const int as_ids = hits * 4 <= bitset_bytes;
  struct dlfl_rt_record_header r;
  memset(&r, 0, sizeof r);
  r.magic = DLFL_RT_RECORD_MAGIC;
  r.ordinal = rt.running;
  r.outcome = outcome;
  r.encoding = as_ids ? DLFL_RT_ENCODING_IDS : DLFL_RT_ENCODING_BITSET;
  r.begin_ns = rt.live->begin_ns;
  r.end_ns = end;
  r.name_full_length = rt.live->name_length;
  r.name_length = (uint32_t)strnlen((const char*)rt.live + DLFL_RT_SLOT_HEADER_SIZE, DLFL_RT_NAME_CAPACITY - 1);
  r.payload_bytes = as_ids ? hits * 4 : bitset_bytes;
  r.hit_count = hits;
  if (!as_ids) {
    memset(rt.bitset, 0, bitset_bytes);
    for (uint64_t k = 0; k < hits; ++k) rt.bitset[rt.ids[k] >> 3] |= (unsigned char)(1u << (rt.ids[k] & 7));
  }
  const uint64_t start = __atomic_load_n(&rt.header->records_end, __ATOMIC_RELAXED);
  rt.write_at = start;
  rt.staged = 0;
  const int failed = stage(&r, sizeof r) || stage((const char*)rt.live + DLFL_RT_SLOT_HEADER_SIZE, r.name_length) ||
                     stage(NULL, round_up(r.name_length, 8) - r.name_length) ||
                     stage(as_ids ? (const void*)rt.ids : (const void*)rt.bitset, r.payload_bytes) ||
                     stage(NULL, round_up(r.payload_bytes, 8) - r.payload_bytes) || stage_flush();
  if (failed) {
    say("dlfl_rt: cannot append to the snapshot file %s: %s (coverage is no longer recorded)", rt.path,
        strerror(errno));
    /* The live slot stays RUNNING: the reader still finds this test's coverage there. */
    stop_recording();
    return;
  }
  __atomic_store_n(&rt.header->record_count, rt.header->record_count + 1, __ATOMIC_RELEASE);
  __atomic_store_n(&rt.header->records_end, rt.write_at, __ATOMIC_RELEASE);
  __atomic_store_n(&rt.live->state, DLFL_RT_SLOT_FREE, __ATOMIC_RELEASE);
  set_map(rt.outside_map);
  /* Clear what was reached: per probe when few were, else the whole map. */
  if (hits < rt.probe_count / 64)
    for (uint64_t k = 0; k < hits; ++k) rt.live_map[rt.ids[k]] = 0;
  else
    memset(rt.live_map, 0, rt.probe_count);
  rt.running = 0;
}

/* Opens the live slot for `name`; the live map is clear. */
static void start_test_locked(const char* name) {
  struct dlfl_rt_slot_header* s = rt.live;
  const size_t length = name ? strlen(name) : 0;
  const size_t kept = length < DLFL_RT_NAME_CAPACITY - 1 ? length : DLFL_RT_NAME_CAPACITY - 1;
  char* area = (char*)s + DLFL_RT_SLOT_HEADER_SIZE;
  if (kept) memcpy(area, name, kept);
  memset(area + kept, 0, DLFL_RT_NAME_CAPACITY - kept);
  s->name_length = (uint32_t)length;
  s->outcome = 0;
  s->begin_ns = now_ns();
  s->end_ns = 0;
  rt.running = ++rt.last_ordinal;
  s->ordinal = rt.running;
  __atomic_store_n(&s->state, DLFL_RT_SLOT_RUNNING, __ATOMIC_RELEASE);
  set_map(rt.live_map);
}

/* A harness's begin/end under DLFL_RT_TEST: the device maps go into the test now, as at a
 * test's end in bracket mode, so a later crash keeps them. The flush has used CUDA, whose
 * runtime registers its exit handlers when first used: arm the exit flush after them.
 * Unlocks. */
static void whole_process_bracket_locked(void) {
  const int flushed = rt.header && rt.owner == getpid() && rt.flush_count > 0;
  if (flushed) flush_device_maps(rt.live_map);
  unlock();
  if (flushed) arm_exit_flush();
}

int dlfl_rt_begin_test(const char* name) {
  lock();
  boot();
  if (rt.whole_process) {
    /* The collector brackets the whole process (and its fork children, which write into
     * the same live map); a harness's own brackets are ignored. */
    whole_process_bracket_locked();
    return 0;
  }
  if (open_file() != 0) {
    const int result = env_file() ? -1 : 0;
    flush_device_maps(current_map());
    unlock();
    return result;
  }
  if (rt.running) end_locked(DLFL_RT_UNKNOWN);
  if (!rt.header) {
    unlock();
    return -1;
  }
  flush_device_maps(rt.outside_map);
  start_test_locked(name);
  unlock();
  return 0;
}

int dlfl_rt_end_test(int outcome) {
  lock();
  if (rt.whole_process) {
    whole_process_bracket_locked();
    return 0;
  }
  if (!rt.header || rt.owner != getpid() || !rt.running) {
    if (!rt.header) flush_device_maps(current_map());
    unlock();
    return -1;
  }
  end_locked(outcome);
  const int result = rt.header ? 0 : -1;
  unlock();
  return result;
}

/* Remembers the image holding `code` (a registering unit's constructor) for
 * dlfl_rt_image(). dladdr is in glibc's libc since 2.34 (libdl before). */
static void note_image_locked(const void* code, uint64_t map_id) {
  Dl_info info;
  if (!dladdr(code, &info)) return;
  for (uint32_t i = 0; i < rt.image_count; ++i)
    if (rt.images[i].base == info.dli_fbase) return;
  if (rt.image_count == MAX_IMAGES) return;
  char* path = rt.images[rt.image_count].path;
  if (info.dli_fname && info.dli_fname[0] == '/') {
    snprintf(path, IMAGE_PATH_BYTES, "%s", info.dli_fname);
  } else {
    /* The program itself: the loader knows it by argv[0] only. */
    const ssize_t n = readlink("/proc/self/exe", path, IMAGE_PATH_BYTES - 1);
    if (n <= 0) return;
    path[n] = '\0';
  }
  rt.images[rt.image_count].base = info.dli_fbase;
  rt.images[rt.image_count].map_id = map_id;
  ++rt.image_count;
}

static void register_locked(uint64_t probe_count, uint64_t map_id);

void dlfl_rt_register_file(uint64_t probe_count, uint64_t map_id, const void* anchor) {
  lock();
  boot();
  note_image_locked(anchor, map_id);
  register_locked(probe_count, map_id);
  unlock();
}

/* Units built with an older probe.h: the caller is the unit's constructor, unless the
 * compiler made the call a tail call (then the image found is the loader's). */
void dlfl_rt_register_probes(uint64_t probe_count, uint64_t map_id) {
  lock();
  boot();
  note_image_locked(__builtin_return_address(0), map_id);
  register_locked(probe_count, map_id);
  unlock();
}

static void register_locked(uint64_t probe_count, uint64_t map_id) {
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
      /* The maps are sized once the file exists: a larger map would overrun them. */
      say("dlfl_rt: a module with %llu probes was loaded after the snapshot file was created (sized for %llu); "
          "coverage is no longer recorded",
          (unsigned long long)probe_count, (unsigned long long)rt.probe_count);
      stop_recording();
    }
    rt.probe_count = probe_count;
  }
  /* A whole-process test starts as soon as the probes are known: static initialisation
   * belongs to it too. */
  if (!rt.header && !rt.file_failed && env_test()) open_file();
}

int dlfl_rt_register_flush(dlfl_rt_flush_fn fn) {
  lock();
  int known = 0;
  for (int i = 0; i < rt.flush_count; ++i) known |= rt.flush[i] == fn;
  int result = 0;
  if (!known) {
    if (rt.flush_count < MAX_FLUSH) rt.flush[rt.flush_count++] = fn;
    else result = -1;
  }
  unlock();
  if (result == 0) arm_exit_flush();
  return result;
}

uint64_t dlfl_rt_probe_count(void) { return rt.probe_count; }

const char* dlfl_rt_image(uint32_t index, uint64_t* map_id) {
  lock();
  const char* path = index < rt.image_count ? rt.images[index].path : NULL;
  if (path && map_id) *map_id = rt.images[index].map_id;
  unlock();
  return path;
}

const char* dlfl_rt_file_path(void) { return rt.header ? rt.path : ""; }

unsigned char* dlfl_rt_current_map(void) {
  lock();
  boot();
  unlock();
  return current_map();
}
