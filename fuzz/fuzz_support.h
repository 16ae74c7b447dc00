// Shared pieces of the libFuzzer harnesses (fuzz/*_fuzzer.cpp): inputs handed to file
// readers through real files, several files cut from one input, and the rule every
// harness checks: a reader either returns or throws dlfl::Error. Anything else (another
// exception, a crash, a sanitizer report, a leak) is a finding.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/error.h"

namespace dlfl::fuzz {

// A directory of this process's own (under $TMPDIR, /tmp by default), made once and
// reused by every run: readers take paths, and one write per input is cheap next to a
// parse. Removed at exit.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    auto p = std::filesystem::temp_directory_path() / ("dlfl-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(p);
    return p;
  }();
  static const struct Cleanup {
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } cleanup;
  return dir;
}

inline std::filesystem::path write_file(const std::string& name, std::string_view bytes) {
  const auto path = scratch_dir() / name;
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

// Splits an input into `n` parts at the separator "\n=====\n" (the seed corpora are
// built that way: fuzz/make_corpora.sh); missing parts are empty, extra ones stay in the
// last part.
inline std::vector<std::string_view> split_parts(const std::uint8_t* data, std::size_t size, std::size_t n) {
  constexpr std::string_view kSeparator = "\n=====\n";
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < n) {
    const auto at = rest.find(kSeparator);
    if (at == std::string_view::npos) break;
    parts.push_back(rest.substr(0, at));
    rest.remove_prefix(at + kSeparator.size());
  }
  parts.push_back(rest);
  parts.resize(n);
  return parts;
}

// Runs `read`; dlfl::Error is the documented answer to bad input and must be one line.
template <class Read>
void expect_value_or_error(Read&& read) {
  try {
    read();
  } catch (const dlfl::Error& e) {
    // An error message is printed as one line by the CLI (escaped there); it must at
    // least exist.
    if (std::string_view(e.what()).empty()) __builtin_trap();
  }
}

}  // namespace dlfl::fuzz
