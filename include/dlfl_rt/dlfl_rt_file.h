/* dlfl_rt_file: layout of the snapshot file the runtime writes (version 2).
 *
 *   offset 0               file header (struct dlfl_rt_file_header), padded to header_size
 *   live_header_offset     the running test: slot header (64 B) + name (name_capacity B)
 *   outside_offset         outside map: probe_count bytes, coverage reached outside any test
 *   live_offset            live map: probe_count bytes, the running test's coverage
 *   records_offset         records of ended tests, appended one after another
 *
 * Probes write one byte per probe (0 = not reached) straight into the outside or the live
 * map, which are MAP_SHARED views of the file, so the coverage reached so far is always in
 * the file: a process killed by a signal (SIGSEGV, SIGABRT, SIGKILL from a timeout) leaves
 * its running test's partial coverage in the live map.
 *
 * When a test ends, the live map is compacted into a record appended at records_end: the
 * ascending ids of the reached probes (4 bytes each) or, when that is larger, a bitset of
 * probe_count bits. So the file grows with the hits, not with tests x probes. The live map
 * is then cleared for the next test.
 *
 * A record (struct dlfl_rt_record_header, 64 B) is followed by its name (name_length
 * bytes, no NUL, padded to 8) and its payload (payload_bytes, padded to 8). Records up to
 * records_end are complete: the writer appends the bytes first and then publishes
 * records_end and record_count with release stores; bytes past records_end are a record
 * the process died writing, ignored.
 *
 * Every test gets an ordinal (1, 2, ...) in the order tests began. The live slot keeps the
 * ordinal of the test it holds; when it is RUNNING and a record of the same ordinal exists,
 * the process died after saving that record and before clearing the slot: the record wins.
 *
 * DLFL_RT_FLAG_WHOLE_PROCESS: the process ran with DLFL_RT_TEST set and the whole process
 * is one test (named by DLFL_RT_TEST): its live slot is RUNNING from the start to the end,
 * holds everything the process reached, and its state says nothing about the outcome (the
 * exit status does).
 *
 * An MPI process (mpirun -np N: OMPI_COMM_WORLD_RANK, PMI_RANK or PMIX_RANK set) records
 * its rank in the header; under DLFL_RT_TEST every rank of the test writes its own file
 * (the first takes DLFL_RT_FILE, the others DLFL_RT_FILE.PID), and collection joins them.
 * Integers are native-endian (the file is read on the machine that wrote it). Readers
 * must check every offset and size against the file's real size.
 */
#ifndef DLFL_RT_DLFL_RT_FILE_H
#define DLFL_RT_DLFL_RT_FILE_H

#include <stdint.h>

#define DLFL_RT_MAGIC "DLFLRT02"
#define DLFL_RT_VERSION 2u
#define DLFL_RT_HEADER_SIZE 4096u
#define DLFL_RT_SLOT_HEADER_SIZE 64u
#define DLFL_RT_NAME_CAPACITY 1024u
#define DLFL_RT_RECORD_HEADER_SIZE 64u
#define DLFL_RT_RECORD_MAGIC 0x44524543u /* "CERD" in memory on little-endian machines */

/* Slot and record states. */
enum {
  DLFL_RT_SLOT_FREE = 0,
  DLFL_RT_SLOT_RUNNING = 1,
  DLFL_RT_SLOT_ENDED = 2,
  DLFL_RT_SLOT_OUTSIDE = 3 /* version 1 only */
};

/* File header flags. */
enum { DLFL_RT_FLAG_WHOLE_PROCESS = 1u };

/* Record payload encodings. */
enum {
  DLFL_RT_ENCODING_IDS = 1,    /* payload_bytes / 4 uint32_t probe ids, ascending */
  DLFL_RT_ENCODING_BITSET = 2  /* ceil(probe_count / 8) bytes; bit i of byte i/8 = probe i */
};

struct dlfl_rt_file_header {
  char magic[8];                /* DLFL_RT_MAGIC, no NUL */
  uint32_t version;             /* DLFL_RT_VERSION */
  uint32_t header_size;         /* bytes of the header area (DLFL_RT_HEADER_SIZE) */
  uint64_t probe_count;         /* bytes of each map */
  uint64_t map_id;              /* the probe map's id, 0 = unknown */
  int32_t pid;                  /* writer process */
  uint32_t flags;               /* DLFL_RT_FLAG_* */
  uint32_t name_capacity;       /* bytes of the live slot's name area, NUL included */
  uint32_t record_count;        /* complete records (published with records_end) */
  uint64_t live_header_offset;  /* struct dlfl_rt_slot_header of the running test */
  uint64_t outside_offset;      /* outside map */
  uint64_t live_offset;         /* live map */
  uint64_t records_offset;      /* first record */
  uint64_t records_end;         /* end of the last complete record (release store) */
  uint32_t mpi_rank_plus_one;   /* MPI rank + 1 from OMPI_COMM_WORLD_RANK / PMI_RANK /
                                   PMIX_RANK; 0 = not started by an MPI launcher (files of
                                   older writers hold 0 here: the header area is zeroed) */
  uint32_t reserved0;
};

/* The running test (the live slot). */
struct dlfl_rt_slot_header {
  uint32_t state;        /* DLFL_RT_SLOT_FREE or _RUNNING */
  int32_t outcome;       /* unused in the live slot */
  uint64_t begin_ns;     /* CLOCK_MONOTONIC at begin */
  uint64_t end_ns;       /* 0 while running */
  uint32_t name_length;  /* full length of the name; the area holds a truncated copy + NUL */
  uint32_t ordinal;      /* the test's ordinal (1, 2, ...), 0 = none yet */
  char reserved[32];
};

/* An ended test. */
struct dlfl_rt_record_header {
  uint32_t magic;          /* DLFL_RT_RECORD_MAGIC */
  uint32_t ordinal;        /* the test's ordinal */
  int32_t outcome;         /* DLFL_RT_PASSED.. (dlfl_rt.h) */
  uint32_t encoding;       /* DLFL_RT_ENCODING_* */
  uint64_t begin_ns;       /* CLOCK_MONOTONIC at begin */
  uint64_t end_ns;         /* CLOCK_MONOTONIC at end */
  uint32_t name_length;    /* bytes of the stored name (at most name_capacity - 1) */
  uint32_t name_full_length; /* the name's length before truncation */
  uint64_t payload_bytes;  /* bytes of the payload (before padding) */
  uint64_t hit_count;      /* probes reached */
  char reserved[8];
};

#ifdef __cplusplus
static_assert(sizeof(struct dlfl_rt_file_header) <= DLFL_RT_HEADER_SIZE / 2, "header fits");
static_assert(sizeof(struct dlfl_rt_slot_header) == DLFL_RT_SLOT_HEADER_SIZE, "slot header size");
static_assert(sizeof(struct dlfl_rt_record_header) == DLFL_RT_RECORD_HEADER_SIZE, "record header size");
#else
_Static_assert(sizeof(struct dlfl_rt_file_header) <= DLFL_RT_HEADER_SIZE / 2, "header fits");
_Static_assert(sizeof(struct dlfl_rt_slot_header) == DLFL_RT_SLOT_HEADER_SIZE, "slot header size");
_Static_assert(sizeof(struct dlfl_rt_record_header) == DLFL_RT_RECORD_HEADER_SIZE, "record header size");
#endif

#endif /* DLFL_RT_DLFL_RT_FILE_H */
