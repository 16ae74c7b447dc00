/* dlfl_rt_file: layout of the memory-mapped snapshot file the runtime writes (version 1).
 *
 *   offset 0                     header (DLFL_RT_HEADER_SIZE bytes)
 *   header_size + i*slot_stride  slot i: slot header (64 B), name (name_capacity B), map
 *
 * Slot 0 collects coverage reached outside any test; slots 1.. are tests in the order they
 * began. A slot's map is `probe_count` bytes, one per probe, 0 = not reached, non-zero =
 * reached. Probes write into the running test's map in place, so the file always holds the
 * coverage reached so far. Integers are native-endian (the file is read on the machine
 * that wrote it). `slot_count`, `current_slot` and a slot's `state` are written with
 * release stores after the data they publish: a reader that sees state == ENDED sees the
 * outcome and times of that slot.
 */
#ifndef DLFL_RT_DLFL_RT_FILE_H
#define DLFL_RT_DLFL_RT_FILE_H

#include <stdint.h>

#define DLFL_RT_MAGIC "DLFLRT01"
#define DLFL_RT_VERSION 1u
#define DLFL_RT_HEADER_SIZE 4096u
#define DLFL_RT_SLOT_HEADER_SIZE 64u
#define DLFL_RT_NAME_CAPACITY 1024u

/* Slot states. */
enum {
  DLFL_RT_SLOT_FREE = 0,
  DLFL_RT_SLOT_RUNNING = 1,
  DLFL_RT_SLOT_ENDED = 2,
  DLFL_RT_SLOT_OUTSIDE = 3 /* slot 0 */
};

struct dlfl_rt_file_header {
  char magic[8];           /* DLFL_RT_MAGIC, no NUL */
  uint32_t version;        /* DLFL_RT_VERSION */
  uint32_t header_size;    /* bytes before slot 0 */
  uint64_t probe_count;    /* map bytes per slot */
  uint64_t slot_stride;    /* bytes per slot, a multiple of 64 */
  uint64_t map_id;         /* the probe map's id, 0 = unknown */
  uint64_t slot_capacity;  /* slots the file has room for (grows by doubling) */
  uint32_t slot_count;     /* slots in use, slot 0 included */
  uint32_t current_slot;   /* slot of the running test, 0 = none */
  int32_t pid;             /* writer process */
  uint32_t name_capacity;  /* bytes of the name area, NUL included */
};

struct dlfl_rt_slot_header {
  uint32_t state;        /* DLFL_RT_SLOT_* */
  int32_t outcome;       /* DLFL_RT_PASSED.. (dlfl_rt.h), valid when ENDED */
  uint64_t begin_ns;     /* CLOCK_MONOTONIC at begin */
  uint64_t end_ns;       /* CLOCK_MONOTONIC at end, 0 while running */
  uint32_t name_length;  /* full length of the name; the area holds a truncated copy */
  uint32_t reserved0;
  char reserved[32];
};

#ifdef __cplusplus
static_assert(sizeof(struct dlfl_rt_file_header) <= DLFL_RT_HEADER_SIZE, "header fits");
static_assert(sizeof(struct dlfl_rt_slot_header) == DLFL_RT_SLOT_HEADER_SIZE, "slot header size");
#else
_Static_assert(sizeof(struct dlfl_rt_file_header) <= DLFL_RT_HEADER_SIZE, "header fits");
_Static_assert(sizeof(struct dlfl_rt_slot_header) == DLFL_RT_SLOT_HEADER_SIZE, "slot header size");
#endif

#endif /* DLFL_RT_DLFL_RT_FILE_H */
