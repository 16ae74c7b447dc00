// Finds an instrumented binary's probe map from where it was built.
#include "dlfl/collect/probe_map_lookup.h"

#include <fstream>
#include <string>
#include <string_view>

#include "dlfl/probe_map/probe_map.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// The source directory recorded in DIR/CMakeCache.txt, or empty.
fs::path cmake_source_dir(const fs::path& dir) {
  std::ifstream cache(dir / "CMakeCache.txt");
  constexpr std::string_view kKey = "CMAKE_HOME_DIRECTORY:INTERNAL=";
  for (std::string line; std::getline(cache, line);)
    if (line.rfind(kKey, 0) == 0) return fs::path(line.substr(kKey.size()));
  return {};
}

}  // namespace

fs::path find_probe_map(const fs::path& binary) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(fs::absolute(binary, ec), ec).parent_path();
  if (ec) return {};
  for (;;) {
    if (const fs::path here = dir / instrument::kProbeMapFileName; is_file(here)) return here;
    if (is_file(dir / "CMakeCache.txt")) {
      const fs::path source = cmake_source_dir(dir);
      if (const fs::path there = source / instrument::kProbeMapFileName; !source.empty() && is_file(there))
        return there;
    }
    if (dir == dir.root_path() || dir.parent_path() == dir) return {};
    dir = dir.parent_path();
  }
}

fs::path find_probe_map_of_run(const std::vector<fs::path>& images, const std::vector<fs::path>& directories) {
  for (const auto& image : images)
    if (fs::path found = find_probe_map(image); !found.empty()) return found;
  for (const auto& dir : directories)
    if (const fs::path here = dir / instrument::kProbeMapFileName; !dir.empty() && is_file(here)) return here;
  return {};
}

}  // namespace dlfl::collect
