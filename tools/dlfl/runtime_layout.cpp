// Finding the runtime's headers and libraries relative to the running dlfl executable.
#include "runtime_layout.h"

#include "dlfl/error.h"

namespace dlfl::cli {
namespace {

namespace fs = std::filesystem;

fs::path executable_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot locate the dlfl executable (/proc/self/exe): " + ec.message());
  return self.parent_path();
}

constexpr const char* kListener = "dlfl_rt_gtest_listener.cpp";

bool has_runtime(const RuntimeLayout& l) {
  return fs::exists(l.include_dir / "dlfl_rt" / "probe.h") && fs::exists(l.lib_dir / "libdlfl_rt.so");
}

}  // namespace

RuntimeLayout locate_runtime() {
  const fs::path bin = executable_dir();
  const RuntimeLayout installed{bin.parent_path() / DLFL_INSTALL_INCLUDEDIR, bin.parent_path() / DLFL_INSTALL_LIBDIR,
                                bin.parent_path() / DLFL_INSTALL_DATADIR / "dlfl" / kListener};
  if (has_runtime(installed)) return installed;
  const RuntimeLayout build_tree{DLFL_SOURCE_INCLUDE_DIR, bin.parent_path().parent_path() / "lib" / "runtime",
                                 fs::path(DLFL_SOURCE_RUNTIME_DIR) / kListener};
  if (has_runtime(build_tree)) return build_tree;
  throw Error("cannot find the dlfl runtime (libdlfl_rt.so and dlfl_rt/probe.h) next to " + bin.string() +
              " (looked in " + installed.lib_dir.string() + " and " + build_tree.lib_dir.string() + ")");
}

std::filesystem::path crash_dump_library() {
  try {
    const auto library = locate_runtime().lib_dir / "libdlfl_crash_dump.so";
    if (std::filesystem::exists(library)) return library;
  } catch (const Error&) {
  }
  return {};
}

}  // namespace dlfl::cli
