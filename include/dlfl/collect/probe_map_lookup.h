// find_probe_map(): where `dlfl instrument` left the probe map of an instrumented test
// binary, so `dlfl collect --runtime` needs no --probe-map in the usual layouts.
#pragma once

#include <filesystem>
#include <vector>

namespace dlfl::collect {

// Walks up from the binary's directory (symlinks resolved) to the filesystem root and
// returns the first `dlfl-probes.map` (instrument::kProbeMapFileName) found
//  - in the directory itself: a build directory inside the instrumented tree
//    (`instr/build/tests/foo` → `instr/dlfl-probes.map`), or
//  - in the source directory of a CMake build directory met on the way (CMakeCache.txt's
//    CMAKE_HOME_DIRECTORY): a build tree outside the instrumented one
//    (`cmake -S instr -B build-instr`).
// Returns an empty path when there is none. Never throws for unreadable directories or
// caches (they are passed over). The binary's snapshot records its probe map's id, so
// the collector still rejects a map found this way that belongs to another tree.
std::filesystem::path find_probe_map(const std::filesystem::path& binary);

// The probe map of a run dlfl did not start (pytest): found from each instrumented image
// the run loaded (find_probe_map: `dlfl_pytest.build` builds inside the instrumented
// tree), else `dlfl-probes.map` in one of `directories` (the run's output directory, the
// directory the tests ran in). Empty when none is found.
std::filesystem::path find_probe_map_of_run(const std::vector<std::filesystem::path>& images,
                                            const std::vector<std::filesystem::path>& directories);

}  // namespace dlfl::collect
