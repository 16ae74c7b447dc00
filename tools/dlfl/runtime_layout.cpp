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

std::vector<std::string> runtime_link_words(const RuntimeLayout& l, bool gtest) {
  // Kept even when it comes before the objects that use it (CMAKE_EXE_LINKER_FLAGS puts
  // it there): Debian's linker drops such a library under its default --as-needed, and
  // nothing references the listener (its static initialiser registers it). A shared
  // library with its own C++ dependencies, so C programs (CMake's C checks) link too.
  std::vector<std::string> words{"-L" + l.lib_dir.string(), "-Wl,-rpath," + l.lib_dir.string(),
                                 "-Wl,--push-state,--no-as-needed"};
  if (gtest) words.push_back("-ldlfl_rt_gtest");
  words.insert(words.end(), {"-ldlfl_rt", "-Wl,--pop-state"});
  return words;
}

std::vector<std::string> gtest_cmake_arguments(const RuntimeLayout& l) {
  for (const auto& file : {l.listener, l.listener_cmake()})
    if (!fs::exists(file)) throw Error(file.string() + " is missing: reinstall dlfl");
  std::vector<std::string> args{"-DCMAKE_PROJECT_INCLUDE=" + l.listener_cmake().string(),
                                "-DDLFL_GTEST_LISTENER_SOURCE=" + l.listener.string(),
                                "-DDLFL_RT_INCLUDE_DIR=" + l.include_dir.string()};
  // For a project whose executables link GoogleTest under a name the script does not know.
  if (fs::exists(l.lib_dir / "libdlfl_rt_gtest.so")) {
    std::string list;
    for (const auto& word : runtime_link_words(l, true)) list += (list.empty() ? "" : ";") + word;
    args.push_back("-DDLFL_RT_GTEST_LINK=" + list);
  }
  return args;
}

std::filesystem::path crash_dump_library() {
  try {
    const auto library = locate_runtime().lib_dir / "libdlfl_crash_dump.so";
    if (std::filesystem::exists(library)) return library;
  } catch (const Error&) {
  }
  return {};
}

std::string crash_dump_missing() {
  std::string where;
  try {
    where = " (looked in " + locate_runtime().lib_dir.string() + ")";
  } catch (const Error& e) {
    where = " (" + std::string(e.what()) + ")";
  }
  return "libdlfl_crash_dump.so was not found next to this dlfl" + where +
         ": a test that crashes or times out keeps no coverage (run dlfl from its build tree or an installation)";
}

}  // namespace dlfl::cli
