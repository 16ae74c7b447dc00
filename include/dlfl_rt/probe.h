/* probe.h: included at the top of every file `dlfl instrument` rewrote; declares the map
 * the probes write and registers the translation unit with the runtime before main.
 *
 * The prologue dlfl writes into each instrumented file is
 *
 *   #define DLFL_RT_PROBE_COUNT 1234            // probes of the whole instrumentation run
 *   #define DLFL_RT_MAP_ID 0x5c1e...ull          // id of its probe map
 *   #include <dlfl_rt/probe.h>
 *
 * and a probe is one store, e.g. `__dlfl_map[17].hit = 1;`. `__dlfl_map` always points at
 * writable memory with room for every registered probe: the runtime points it at boot
 * scratch memory when it loads, then at the outside slot or the running test's slot of the
 * snapshot file. Functions that may run on a CUDA device use DLFL_RT_PROBE(id) instead,
 * which writes the device map of cuda_probe.h when compiled for the device.
 */
#ifndef DLFL_RT_PROBE_H
#define DLFL_RT_PROBE_H

#ifndef DLFL_RT_PROBE_COUNT
#error "define DLFL_RT_PROBE_COUNT before including <dlfl_rt/probe.h> (dlfl instrument writes it)"
#endif
#ifndef DLFL_RT_MAP_ID
#define DLFL_RT_MAP_ID 0
#endif

#include "dlfl_rt/dlfl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif
/* Defined in libdlfl_rt; never null once the runtime is loaded. */
extern dlfl_rt_cell* __dlfl_map;
#ifdef __cplusplus
}
#endif

#if defined(__CUDACC__)
#include "dlfl_rt/cuda_probe.h"
#else
#define DLFL_RT_PROBE(id) (__dlfl_map[(id)].hit = 1)
#endif

#if !defined(__CUDA_ARCH__)
/* The anchor's address tells the runtime which image (program, library, extension module)
 * the unit was linked into (dlfl_rt_image). */
static const char dlfl_rt_image_anchor = 0;
/* Priority 101 runs before the default-priority C++ initialisers of the same image, so the
 * runtime knows the probe count before any instrumented code of this image can run. */
__attribute__((constructor(101))) static void dlfl_rt_register_translation_unit(void) {
  dlfl_rt_register_file((uint64_t)(DLFL_RT_PROBE_COUNT), (uint64_t)(DLFL_RT_MAP_ID), &dlfl_rt_image_anchor);
}
#endif

#endif /* DLFL_RT_PROBE_H */
