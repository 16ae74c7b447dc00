/* cuda_probe.h: the CUDA shim. Each CUDA translation unit gets its own device byte map
 * (without relocatable device code a __device__ variable cannot be shared across units),
 * and a host callback that the runtime calls at every test begin/end: it copies the device
 * map back, ORs it into the slot's map and clears the device copy.
 *
 * Included by probe.h when __CUDACC__ is defined (nvcc, clang CUDA); needs the CUDA
 * runtime API (cudart). Under DLFL_RT_TEST the runtime also flushes at a normal exit.
 * Coverage a kernel reached is lost when the process crashes before the next flush (the
 * device map lives in device memory until then, and no CUDA call is safe from a signal
 * handler), or when a kernel fault makes the context unusable (said once on stderr).
 */
#ifndef DLFL_RT_CUDA_PROBE_H
#define DLFL_RT_CUDA_PROBE_H

#include <cuda_runtime.h>
#include <stdio.h>

/* Indexed by the global probe id; device probes write here, host probes never do. */
static __device__ dlfl_rt_cell __dlfl_dmap[DLFL_RT_PROBE_COUNT];

#ifdef __CUDA_ARCH__
#define DLFL_RT_PROBE(id) (__dlfl_dmap[(id)].hit = 1)
#else
#define DLFL_RT_PROBE(id) (__dlfl_map[(id)].hit = 1)

static unsigned char dlfl_rt_device_map_copy[DLFL_RT_PROBE_COUNT];

/* Set once a failed copy was reported: one shared flag (weak) for all units of a binary,
 * as a broken or torn-down context fails every unit's copy. */
extern "C" {
__attribute__((weak)) int dlfl_rt_device_copy_failure_told;
}

static void dlfl_rt_flush_device_map(unsigned char* map, uint64_t count) {
  /* No device (or no driver): nothing to copy, and asking again each test costs time. */
  static int usable = -1;
  if (usable < 0) {
    int devices = 0;
    usable = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
    (void)cudaGetLastError();
  }
  if (!usable) return;
  const cudaError_t copied =
      cudaMemcpyFromSymbol(dlfl_rt_device_map_copy, __dlfl_dmap, sizeof dlfl_rt_device_map_copy);
  if (copied != cudaSuccess) {
    /* A kernel fault (illegal address, trap) leaves the context unusable, or it was
     * already torn down at exit: the device map cannot be read again in this process, so
     * say once what is lost. */
    if (!dlfl_rt_device_copy_failure_told) {
      dlfl_rt_device_copy_failure_told = 1;
      fprintf(stderr,
              "dlfl_rt: device coverage lost: cannot copy a CUDA unit's probe map back (%s: %s); the device "
              "lines reached since the last test began or ended, and by every later test of this process, "
              "are not recorded\n",
              cudaGetErrorName(copied), cudaGetErrorString(copied));
    }
    (void)cudaGetLastError();
    return;
  }
  const uint64_t n = count < sizeof dlfl_rt_device_map_copy ? count : sizeof dlfl_rt_device_map_copy;
  int any = 0;
  for (uint64_t i = 0; i < n; ++i) {
    if (dlfl_rt_device_map_copy[i]) {
      map[i] = 1;
      any = 1;
    }
  }
  if (any) {
    void* device_map = 0;
    if (cudaGetSymbolAddress(&device_map, __dlfl_dmap) == cudaSuccess)
      (void)cudaMemset(device_map, 0, sizeof dlfl_rt_device_map_copy);
    (void)cudaGetLastError();
  }
}

__attribute__((constructor(101))) static void dlfl_rt_register_device_map(void) {
  dlfl_rt_register_flush(dlfl_rt_flush_device_map);
}

/* Registered again from a dynamic initialiser, which the host compiler runs after this
 * unit's nvcc-generated constructor: that one registers the module and an atexit handler
 * that unloads it (and the device map), and the CUDA runtime registers its teardown before.
 * Registering again re-arms the runtime's exit flush after those, so it runs first (atexit
 * is LIFO). A teardown that CUDA registers later, when first used, is ordered by the
 * flush at a harness's begin/end, which re-arms too. */
namespace {
struct dlfl_rt_device_map_registration {
  dlfl_rt_device_map_registration() { dlfl_rt_register_flush(dlfl_rt_flush_device_map); }
};
dlfl_rt_device_map_registration dlfl_rt_device_map_registered;
}  // namespace
#endif /* __CUDA_ARCH__ */

#endif /* DLFL_RT_CUDA_PROBE_H */
