// Finding a CMake project's options that turn its tests on (cmake_test_options.h).
#include "dlfl/lab/bench/cmake_test_options.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

std::string upper(std::string_view text) {
  std::string out(text);
  for (auto& ch : out) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return out;
}

std::string read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void add_options(const std::string& text, std::vector<std::string>& names) {
  // option(NAME "help" OFF) and cmake_dependent_option(NAME ...), any case, any spacing.
  static const std::regex declared(R"((?:^|[^A-Za-z0-9_])(?:cmake_dependent_)?option\s*\(\s*([A-Za-z_][A-Za-z0-9_]*))",
                                   std::regex::icase);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), declared); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    if (names_a_test_option(name) && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
}

}  // namespace

bool names_a_test_option(std::string_view name) {
  const std::string n = upper(name);
  if (n.find("TEST") == std::string::npos) return false;
  for (const char* negative : {"DISABLE", "SKIP", "NO_", "WITHOUT", "EXCLUDE"})
    if (n.find(negative) != std::string::npos) return false;
  return true;
}

std::vector<std::string> cmake_test_options(const fs::path& source) {
  std::vector<std::string> names;
  add_options(read_all(source / "CMakeLists.txt"), names);
  for (const char* dir : {"cmake", "CMake"}) {
    std::error_code ec;
    if (!fs::is_directory(source / dir, ec)) continue;
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(source / dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->path().extension() == ".cmake" && it->is_regular_file(ec)) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) add_options(read_all(file), names);
  }
  return names;
}

std::vector<std::string> cached_test_options_off(const fs::path& build) {
  std::vector<std::string> names;
  std::istringstream cache(read_all(build / "CMakeCache.txt"));
  for (std::string line; std::getline(cache, line);) {
    const auto colon = line.find(":BOOL=");
    if (colon == std::string::npos || line.starts_with("//")) continue;
    const std::string name = line.substr(0, colon);
    const std::string value = upper(line.substr(colon + 6));
    if (names_a_test_option(name) && (value == "OFF" || value == "FALSE" || value == "0" || value == "NO"))
      names.push_back(name);
  }
  return names;
}

std::string missing_compile_database_reason(const fs::path& build) {
  std::error_code ec;
  if (!fs::exists(build / "CMakeCache.txt", ec))
    return "the configure step wrote no compile_commands.json (and no CMake cache) into " + build.string() +
           ": the runtime backend instruments what a compilation database lists; configure with CMake (it adds "
           "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON itself) or write one with bear";
  std::string line = "the configure step wrote no compile_commands.json: no C/C++ target was configured";
  const std::vector<std::string> off = cached_test_options_off(build);
  if (off.empty()) return line + " (is the project header-only with its tests behind an option?)";
  line += "; options that look like they enable tests: ";
  for (std::size_t i = 0; i < off.size(); ++i) line += (i ? ", " : "") + off[i];
  return line + " (turn one on with the recipe's \"cmake_args\": [\"-D" + off.front() + "=ON\"])";
}

}  // namespace dlfl::bench
