// DLFL_POPCNT_CLONES: the popcount instruction is not in the x86-64 baseline the library
// is built for, and std::popcount's portable fallback (__popcountdi2) is ~5x slower: a
// function marked with it is cloned for CPUs that have the instruction (picked once, at
// load time).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define DLFL_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define DLFL_POPCNT_CLONES
#endif
