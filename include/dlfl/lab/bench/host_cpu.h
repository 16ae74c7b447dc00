// The CPU a real bug was reproduced on. Spectra of projects that pick their kernels by
// the CPU's instruction set at run time (oneDNN's JIT kernels, for one) differ between
// machines, so each record says where it was made (docs/realbugs-runs.md).
#pragma once

#include <string>
#include <string_view>

namespace dlfl::bench {

// One line naming a CPU from the text of /proc/cpuinfo (its first processor's entries)
// and the machine name of uname(2), e.g.
//   "AMD EPYC (family 23, model 1; x86_64: sse4_2 avx avx2 fma)".
// The model is x86's "model name" with its family and model numbers, or an ARM CPU's
// implementer and part; the extensions are those of a fixed list of the vector
// instruction sets kernels dispatch on (x86: SSE4.2 to AVX-512 and AMX; ARM: NEON, SVE),
// in that list's order. Parts missing from the text are left out; never throws.
std::string describe_cpu(std::string_view cpuinfo, std::string_view machine);

// describe_cpu of this machine; "" when /proc/cpuinfo cannot be read.
std::string host_cpu();

}  // namespace dlfl::bench
