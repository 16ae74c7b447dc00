/* dlfl_rt: the C API of dlfl's coverage runtime, linked into instrumented test programs.
 *
 * Instrumented code writes one byte per probe into `__dlfl_map` (see probe.h). The
 * runtime points that map at a per-test slot of a memory-mapped file, so each test's
 * coverage lands on disk as it is reached and survives a crash, an abort or a SIGKILL.
 *
 *   DLFL_RT_FILE=/tmp/run.map ./tests     # the collector sets this
 *
 * Without DLFL_RT_FILE the runtime still accepts every call and keeps the maps in
 * anonymous memory (nothing is written).
 *
 * Test brackets: a test harness calls dlfl_rt_begin_test() before and dlfl_rt_end_test()
 * after each test (the GoogleTest listener in libdlfl_rt_gtest does it for you; Python
 * calls them through ctypes). Coverage reached outside any bracket (static
 * initialisation, main, between tests) goes to a separate "outside" slot.
 *
 * Thread safety: begin/end may be called from any thread but are meant to be called from
 * one harness thread; probes from other threads during a switch land in either the old or
 * the new slot, never out of bounds. Linux only (mmap, CLOCK_MONOTONIC). Depends on libc.
 */
#ifndef DLFL_RT_DLFL_RT_H
#define DLFL_RT_DLFL_RT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One byte of a probe map. A struct rather than a plain unsigned char so that compilers'
 * type-based alias analysis knows a probe's store cannot touch the program's data: a char
 * store may alias anything, which would stop the vectorisation of loops with a probe. */
typedef struct dlfl_rt_cell {
  unsigned char hit; /* 0 = not reached */
} dlfl_rt_cell;

/* Test outcomes stored in a slot (the values are part of the file format). */
enum {
  DLFL_RT_PASSED = 0,
  DLFL_RT_FAILED = 1,
  DLFL_RT_SKIPPED = 2,
  /* A test whose end was never reported: a new begin came first. */
  DLFL_RT_UNKNOWN = 3
};

/* Starts a test slot named `name` (UTF-8, NUL-terminated; names longer than the slot's
 * name capacity are truncated, the full length is recorded). Ends a still-running test
 * with DLFL_RT_UNKNOWN first. Returns 0, or -1 when the slot could not be created (the
 * reason is printed once to stderr; probes keep working into scratch memory). */
int dlfl_rt_begin_test(const char* name);

/* Ends the running test with `outcome` (DLFL_RT_PASSED, _FAILED or _SKIPPED): device maps
 * are copied in first, then the slot is marked ended. Returns 0, or -1 when no test runs. */
int dlfl_rt_end_test(int outcome);

/* Called by every instrumented translation unit before main (see probe.h): `probe_count`
 * is the number of probes of the instrumentation run, `map_id` identifies its probe map
 * (0 = unknown). The largest count wins; a count larger than the first one after the
 * file exists is refused with a message (those probes are then not recorded). */
void dlfl_rt_register_probes(uint64_t probe_count, uint64_t map_id);

/* A callback that ORs a device-side map into `map` (`count` bytes) and clears the device
 * copy; the CUDA shim (cuda_probe.h) registers one per CUDA translation unit. Called at
 * every begin/end of a test. At most 256 callbacks; returns 0, or -1 when full. */
typedef void (*dlfl_rt_flush_fn)(unsigned char* map, uint64_t count);
int dlfl_rt_register_flush(dlfl_rt_flush_fn fn);

/* Introspection, for tests and language bindings. */
uint64_t dlfl_rt_probe_count(void);
/* The file the slots are written to, or "" when none (no DLFL_RT_FILE / not created yet).
 * Owned by the runtime, valid until the process ends. */
const char* dlfl_rt_file_path(void);
/* The map probes currently write into (the running test's slot, else the outside slot). */
unsigned char* dlfl_rt_current_map(void);

#ifdef __cplusplus
}
#endif

#endif /* DLFL_RT_DLFL_RT_H */
