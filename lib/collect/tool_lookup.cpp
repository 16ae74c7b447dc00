// Finding the coverage tools on PATH and asking them their version.
#include "tool_lookup.h"

#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <filesystem>

#include "dlfl/collect/process.h"

namespace dlfl::collect {
namespace {

bool executable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

int leading_number(std::string_view text) {
  int value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace

std::string find_program(std::string_view name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string_view::npos) return executable(std::string(name)) ? std::string(name) : std::string();
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const auto dir = dirs.substr(0, colon);
    const auto candidate = std::filesystem::path(dir.empty() ? "." : std::string(dir)) / std::string(name);
    if (executable(candidate)) return candidate.string();
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  return {};
}

ToolVersion query_version(const std::string& program, const std::vector<std::string>& args) {
  ProcessSpec spec;
  spec.argv = {program};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout = std::chrono::seconds(30);
  spec.merge_stderr = true;
  const ProcessResult r = run_process(spec);
  ToolVersion v;
  std::string_view out = r.out;
  // LLVM tools print a blank or banner line first on some builds: take the first line
  // that names a version.
  while (!out.empty()) {
    const auto nl = out.find('\n');
    const auto line = out.substr(0, nl);
    out = nl == std::string_view::npos ? std::string_view{} : out.substr(nl + 1);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (v.line.empty()) v.line = std::string(line.substr(line.find_first_not_of(" \t")));
    if (const auto at = line.find("version "); at != std::string_view::npos) {
      v.line = std::string(line.substr(line.find_first_not_of(" \t")));
      v.major = leading_number(line.substr(at + 8));
      break;
    }
    if (line.starts_with("gcov ")) {
      const auto space = line.find_last_of(' ');
      v.major = leading_number(line.substr(space + 1));
      break;
    }
  }
  return v;
}

std::string find_versioned(std::string_view base, int major) {
  if (major > 0)
    if (auto p = find_program(std::string(base) + "-" + std::to_string(major)); !p.empty()) return p;
  return find_program(base);
}

}  // namespace dlfl::collect
