// Planning the crash handler's preload for a gcov/LLVM collection.
#include "dlfl/collect/crash_dump.h"

#include <fmt/format.h>

#include "dlfl/collect/binary_probe.h"

namespace dlfl::collect {

CrashDumpPlan plan_crash_dump(const CrashDumpInputs& in) {
  CrashDumpPlan plan;
  if (in.backend_keeps_killed_tests) return plan;
  if (!in.requested) {
    plan.note = "crash handler off (--crash-handler off): a test killed by a signal or --timeout keeps no coverage";
    return plan;
  }
  if (in.library.empty()) {
    plan.note = "crash handler unavailable (libdlfl_crash_dump.so not found next to dlfl): a test killed by a "
                "signal or --timeout keeps no coverage";
    return plan;
  }
  std::vector<std::string> static_ones;
  for (const auto& exe : in.executables) {
    const BinaryInfo info = probe_binary(exe);
    if (info.elf && !info.dynamic_executable) static_ones.push_back(exe.filename().string());
  }
  if (!in.executables.empty() && static_ones.size() == in.executables.size()) {
    plan.note = fmt::format(
        "crash handler unavailable: {} {} statically linked (LD_PRELOAD does not apply); a test killed by a "
        "signal or --timeout keeps no coverage",
        fmt::join(static_ones, ", "), static_ones.size() == 1 ? "is" : "are");
    return plan;
  }
  plan.active = true;
  std::string preload = in.library.string();
  if (in.ld_preload && *in.ld_preload) preload += std::string(":") + in.ld_preload;
  plan.environment.push_back("LD_PRELOAD=" + preload);
  // ASan's link-order check would refuse a gcc -fsanitize=address test with our library
  // first (ours last: it must hold). abort_on_error=1 makes a sanitizer's error report
  // (ASan, LSan; a plain _exit(1) otherwise, which writes no coverage) end in abort(),
  // which the handler turns into written coverage and a SIGABRT crash (first: the
  // user's own abort_on_error wins).
  std::string asan = "abort_on_error=1:";
  if (in.asan_options && *in.asan_options) asan += std::string(in.asan_options) + ":";
  asan += "verify_asan_link_order=0";
  plan.environment.push_back("ASAN_OPTIONS=" + asan);
  plan.note = "crash handler: " + in.library.filename().string() +
              " preloaded, so a test killed by a signal or --timeout keeps the coverage it reached";
  if (!static_ones.empty())
    plan.note += fmt::format(" (not in {}: statically linked)", fmt::join(static_ones, ", "));
  return plan;
}

}  // namespace dlfl::collect
