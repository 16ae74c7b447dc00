// The CPU a record names: model, family and vector extensions from /proc/cpuinfo's text.
#include "dlfl/lab/bench/host_cpu.h"

#include <gtest/gtest.h>

namespace dlfl::bench {
namespace {

TEST(HostCpu, NamesAnX86ModelItsNumbersAndTheExtensionsKernelsDispatchOn) {
  const char* cpuinfo =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 23\nmodel\t\t: 1\n"
      "model name\t: AMD EPYC\nflags\t\t: fpu vme avx2 sse4_2 fma avx sse4_1 ssse3\n\n"
      "processor\t: 1\nmodel name\t: Other CPU\nflags\t\t: fpu avx512f\n";
  // The first processor's entries only; the extensions in the list's order.
  EXPECT_EQ(describe_cpu(cpuinfo, "x86_64"), "AMD EPYC (family 23, model 1; x86_64: sse4_2 avx avx2 fma)");

  const char* avx512 =
      "cpu family\t: 6\nmodel\t\t: 106\nmodel name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n"
      "flags\t\t: sse4_2 avx avx2 fma avx512f avx512bw avx512vl avx512_vnni avx512vbmi\n";
  EXPECT_EQ(describe_cpu(avx512, "x86_64"),
            "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz (family 6, model 106; x86_64: sse4_2 avx avx2 fma avx512f "
            "avx512bw avx512vl avx512_vnni)");
}

TEST(HostCpu, NamesAnArmCpuByImplementerAndPart) {
  const char* cpuinfo =
      "processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd evtstrm sve asimddp sve2 i8mm\n"
      "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd4f\n\n";
  EXPECT_EQ(describe_cpu(cpuinfo, "aarch64"), "CPU (implementer 0x41, part 0xd4f; aarch64: asimd asimddp sve sve2 i8mm)");
}

TEST(HostCpu, LeavesOutWhatTheTextLacks) {
  EXPECT_EQ(describe_cpu("", ""), "CPU");
  EXPECT_EQ(describe_cpu("", "riscv64"), "CPU (riscv64)");
  EXPECT_EQ(describe_cpu("model name : Some CPU\nflags : fpu\n", "x86_64"), "Some CPU (x86_64)");
  // A word that merely starts like an extension is not one.
  EXPECT_EQ(describe_cpu("flags : avx512fx avx2x\n", ""), "CPU");
}

TEST(HostCpu, ThisMachineIsNamed) {
  // Linux always has /proc/cpuinfo and a machine name.
  const std::string here = host_cpu();
  EXPECT_FALSE(here.empty());
  EXPECT_NE(here.find('('), std::string::npos) << here;
}

}  // namespace
}  // namespace dlfl::bench
