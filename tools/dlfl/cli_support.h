// Shared pieces of the subcommands: output to a file or stdout, warnings, enum options.
#pragma once

#include <CLI/CLI.hpp>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <map>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace dlfl::cli {

// Exit codes: 0 success, 1 runtime failure (reserved), 2 bad input or usage.
inline constexpr int kExitBadInput = 2;

// Writes through `emit` to stdout (path empty or "-") or atomically to the file.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& emit);

// "dlfl: warning: ..." on stderr (escaped as by printable()).
void warn(std::string_view message);

// SIGINT/SIGTERM set flag() while the scope lives (long runs: finish nothing new, kill the
// running builds and tests, keep what is stored, write the outputs; the next run
// resumes). The flag is cleared when the scope starts.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  static const std::atomic<bool>& flag();
};

// The end of a resumable run (`dlfl bench`, `dlfl bugset reproduce`) on stderr: where
// its tables are, how many `unit` ("faults", "bugs") an earlier run finished and how many
// are pending; then, when interrupted, exit 130 (the status of a run stopped by SIGINT,
// not bad input).
void report_resumable_run(const std::filesystem::path& out_dir, std::size_t resumed, std::size_t pending,
                          bool interrupted, std::string_view unit);

// `message` safe to print as one terminal line (dlfl::printable, include/dlfl/printable.h).
// Error messages quote pieces of the input, which may be binary or hold CRs that would
// overwrite the line or corrupt a log.
std::string printable(std::string_view message);

// This executable (/proc/self/exe, through any symlink). Throws dlfl::Error when unknown.
std::filesystem::path self_executable();

// The output of `dlfl config ARGS...` of this very executable, trimmed: the runtime's flags
// for instrumented builds (`--cflags`, `--libs --gtest`). Throws dlfl::Error with what
// `dlfl config` said when the runtime is not there.
std::string runtime_flags(const std::vector<std::string>& args);

// What a spectrum input may be, as rank's and convert's --help say it: every format
// dlfl::io::read_spectrum detects (docs/formats.md#spectra).
inline constexpr const char* kSpectrumInputHelp =
    "Spectrum: native .dlfl, GZoltar directory (spectra.csv, matrix.txt, tests.csv), legacy matrix/spectra, "
    "Matrix Market .mtx (+ .tests.csv, .elements.csv) or lcov .info/.lcov (+ .tests.csv)";

// The transform of an enum option: each of `values` under the one name the library gives
// it (granularity_name, tie_rule_name, ...), case-insensitive. --help and the error list
// the names, `{line,block,function,file}`, not the enum's numbers.
template <class Enum>
CLI::Validator enum_names(std::initializer_list<Enum> values, std::string_view (*name)(Enum) noexcept) {
  std::map<std::string, Enum> choices;
  std::string list;
  for (const Enum value : values) {
    choices.emplace(name(value), value);
    list += (list.empty() ? "" : ",") + std::string(name(value));
  }
  list = "{" + list + "}";
  return CLI::Validator(
      [choices, list](std::string& input) -> std::string {
        std::string lower = input;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const auto it = choices.find(lower);
        if (it == choices.end()) return input + " not in " + list;
        // CLI11 reads an enum option as its number.
        input = std::to_string(static_cast<std::underlying_type_t<Enum>>(it->second));
        return {};
      },
      list);
}

// A library's list of names (ranking_formats(), spectrum_format_names()) as the choices of
// CLI::IsMember, in the library's order: --help and the check say what the library takes.
std::vector<std::string> name_choices(std::span<const std::string_view> names);

// Prints "dlfl: error: MESSAGE" (printable) on stderr.
void print_error(std::string_view message);

}  // namespace dlfl::cli
