/* dlfl_rt: the C API of dlfl's coverage runtime, linked into instrumented test programs.
 *
 * Instrumented code writes one byte per probe into `__dlfl_map` (see probe.h). The
 * runtime points that map at the live map of a memory-mapped snapshot file (layout:
 * dlfl_rt_file.h), so a test's coverage lands on disk as it is reached and survives a
 * crash, an abort or a SIGKILL; when the test ends it is compacted into a record of the
 * reached probe ids, so the file grows with the hits, not with tests x probes.
 *
 * Environment (the collector sets it; nothing else is needed):
 *   DLFL_RT_FILE=PATH   write the snapshot to PATH. When a live process already holds PATH
 *                       (a gtest death-test child, MPI ranks, pytest-xdist workers) the
 *                       process writes PATH.PID instead.
 *   DLFL_RT_TEST=NAME   the whole process is the one test NAME (any runner: CTest, a
 *                       script, `--tests/--cmd`): from the first registered probe to its
 *                       end, with no harness and no call into this API. Then every
 *                       process writes PATH.PID (several processes of one test, run one
 *                       after another or at once, each keep their own file), begin/end
 *                       calls of a harness are ignored, and a fork child keeps writing
 *                       into its parent's live map: its coverage counts for the test.
 * Without DLFL_RT_FILE the runtime still accepts every call and keeps the maps in
 * anonymous memory (nothing is written).
 *
 * Test brackets: a test harness calls dlfl_rt_begin_test() before and dlfl_rt_end_test()
 * after each test (the GoogleTest listener does it for you: libdlfl_rt_gtest, or the
 * listener source compiled in your own build, `dlfl config --gtest-listener-source`;
 * Python calls them through ctypes). Coverage reached outside any bracket (static
 * initialisation, main, between tests) goes to a separate "outside" map.
 *
 * Forks: a fork child inherits the parent's maps (MAP_SHARED) and its probes land in the
 * parent's running test until the child itself begins a test; then it writes a file of its
 * own, PARENT_FILE.PID.
 *
 * Thread safety: begin/end may be called from any thread but are meant to be called from
 * one harness thread; probes from other threads during a switch land in either the old or
 * the new test (or are dropped while a test is being saved), never out of bounds. Ending a
 * test allocates nothing and uses only async-signal-safe calls. Linux only (mmap, flock,
 * CLOCK_MONOTONIC). Depends on libc only.
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

/* Starts a test named `name` (UTF-8, NUL-terminated; names longer than the slot's name
 * capacity are truncated, the full length is recorded). Ends a still-running test with
 * DLFL_RT_UNKNOWN first. Returns 0 (also when DLFL_RT_TEST makes it a no-op), or -1 when
 * the file could not be created or written (the reason is printed once to stderr; probes
 * keep working into scratch memory). */
int dlfl_rt_begin_test(const char* name);

/* Ends the running test with `outcome` (DLFL_RT_PASSED, _FAILED or _SKIPPED): device maps
 * are copied in first, then the test is saved as a record and the live map cleared.
 * Returns 0 (also as a no-op under DLFL_RT_TEST), or -1 when no test runs or the record
 * could not be written. */
int dlfl_rt_end_test(int outcome);

/* Called by every instrumented translation unit before main (see probe.h): `probe_count`
 * is the number of probes of the instrumentation run, `map_id` identifies its probe map
 * (0 = unknown). The largest count wins; a count larger than the first one after the
 * file exists is refused with a message (those probes are then not recorded). */
void dlfl_rt_register_probes(uint64_t probe_count, uint64_t map_id);
/* The same for an instrumented file of the image holding `anchor` (an object of that
 * file, see probe.h): the image is remembered for dlfl_rt_image(). */
void dlfl_rt_register_file(uint64_t probe_count, uint64_t map_id, const void* anchor);

/* A callback that ORs a device-side map into `map` (`count` bytes) and clears the device
 * copy; the CUDA shim (cuda_probe.h) registers one per CUDA translation unit. Called at
 * every begin/end of a test; under DLFL_RT_TEST also at a harness's ignored begin/end and
 * at a normal exit (exit(), return from main; not on a crash), from an atexit handler that
 * each registration (re)registers: it runs before the exit handlers registered until then
 * (the CUDA runtime's), so register after CUDA's. Registering a callback again only does
 * that. At most 256 callbacks; returns 0, or -1 when full. */
typedef void (*dlfl_rt_flush_fn)(unsigned char* map, uint64_t count);
int dlfl_rt_register_flush(dlfl_rt_flush_fn fn);

/* Introspection, for tests and language bindings. */
uint64_t dlfl_rt_probe_count(void);
/* The file the slots are written to, or "" when none (no DLFL_RT_FILE / not created yet).
 * Owned by the runtime, valid until the process ends. */
const char* dlfl_rt_file_path(void);
/* The map probes currently write into (the running test's live map, else the outside map). */
unsigned char* dlfl_rt_current_map(void);
/* The `index`-th image (program, shared library, Python extension module) whose
 * instrumented code registered probes, in the order they did, as the dynamic loader names
 * it (the program: /proc/self/exe), with the map id it registered in *map_id (when not
 * null); NULL past the last. Language bindings record where the instrumented code was
 * loaded from: its probe map lies in the instrumented tree it was built in, and an
 * extension module that is not among these was built without probes. */
const char* dlfl_rt_image(uint32_t index, uint64_t* map_id);

#ifdef __cplusplus
}
#endif

#endif /* DLFL_RT_DLFL_RT_H */
