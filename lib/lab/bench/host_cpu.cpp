// The CPU a real bug was reproduced on (include/dlfl/lab/bench/host_cpu.h).
#include "dlfl/lab/bench/host_cpu.h"

#include <sys/utsname.h>

#include <array>
#include <fstream>
#include <map>
#include <sstream>

namespace dlfl::bench {
namespace {

// The vector extensions kernels dispatch on, as /proc/cpuinfo spells them.
constexpr std::array kX86Extensions{"sse4_2",      "avx",        "avx2",        "fma",     "avx512f", "avx512bw",
                                    "avx512vl",    "avx512_vnni", "avx512_bf16", "amx_tile"};
constexpr std::array kArmExtensions{"asimd", "asimddp", "sve", "sve2", "i8mm", "bf16"};

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// "key : value" entries of the first processor: the text up to its first blank line.
std::map<std::string, std::string, std::less<>> first_processor(std::string_view text) {
  std::map<std::string, std::string, std::less<>> entries;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view line = text.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (trimmed(line).empty()) {
      if (!entries.empty()) break;
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    entries.emplace(std::string(trimmed(line.substr(0, colon))), std::string(trimmed(line.substr(colon + 1))));
  }
  return entries;
}

std::string value_of(const std::map<std::string, std::string, std::less<>>& entries, std::string_view key) {
  const auto it = entries.find(key);
  return it == entries.end() ? "" : it->second;
}

template <std::size_t N>
std::string present(const std::string& flags, const std::array<const char*, N>& wanted) {
  const std::string words = " " + flags + " ";  // /proc/cpuinfo separates them by spaces
  std::string out;
  for (const char* w : wanted)
    if (words.find(std::string(" ") + w + " ") != std::string::npos) out += (out.empty() ? "" : " ") + std::string(w);
  return out;
}

}  // namespace

std::string describe_cpu(std::string_view cpuinfo, std::string_view machine) {
  const auto cpu = first_processor(cpuinfo);
  std::string model = value_of(cpu, "model name");
  std::string numbers;
  if (!value_of(cpu, "cpu family").empty())
    numbers = "family " + value_of(cpu, "cpu family") +
              (value_of(cpu, "model").empty() ? "" : ", model " + value_of(cpu, "model"));
  else if (!value_of(cpu, "CPU implementer").empty())
    numbers = "implementer " + value_of(cpu, "CPU implementer") +
              (value_of(cpu, "CPU part").empty() ? "" : ", part " + value_of(cpu, "CPU part"));
  if (model.empty()) model = value_of(cpu, "Hardware").empty() ? "CPU" : value_of(cpu, "Hardware");
  std::string extensions = present(value_of(cpu, "flags"), kX86Extensions);
  if (extensions.empty()) extensions = present(value_of(cpu, "Features"), kArmExtensions);
  std::string isa(machine);
  if (!extensions.empty()) isa += (isa.empty() ? "" : ": ") + extensions;
  std::string details = numbers;
  if (!isa.empty()) details += (details.empty() ? "" : "; ") + isa;
  return details.empty() ? model : model + " (" + details + ")";
}

std::string host_cpu() {
  std::ifstream in("/proc/cpuinfo");
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  struct utsname names {};
  return describe_cpu(text.str(), ::uname(&names) == 0 ? names.machine : "");
}

}  // namespace dlfl::bench
