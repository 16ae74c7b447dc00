// Subject: one program `dlfl bench` seeds faults into, described by a small JSON file
// (how to configure and build it, its GoogleTest binary, which files may be mutated).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::bench {

// How per-test coverage is collected for each fault.
enum class Backend {
  runtime,  // `dlfl instrument` tree + libdlfl_rt: one run of the test binary (fast)
  gcov,     // --coverage build, one process per test (slow; no Clang needed to collect)
  llvm,     // -fprofile-instr-generate -fcoverage-mapping build (clang), one process per test
};

// "runtime", "gcov", "llvm".
std::string_view to_string(Backend backend);

// The subject file, e.g. examples/tensorlite/dlfl-subject.json:
//   {
//     "name": "tensorlite",                 // [A-Za-z0-9_.-]+, names outputs and bug ids
//     "kind": "dl",                         // "dl" or "traditional": the kind of program
//     "root": ".",                          // source root, relative to this file
//     "configure": "cmake -S {source} -B {build} ... -DCMAKE_CXX_FLAGS='-O0 {cflags}' ...",
//     "build": "cmake --build {build} --target tensorlite_tests -j {jobs}",
//     "test_binary": "tensorlite_tests",    // GoogleTest binary, relative to {build}
//     "test_filter": "",                    // GoogleTest filter; "" = every test
//     "mutate": {"files": ["src/*.cpp"], "exclude": [], "operators": []},
//     "instrument_exclude": ["tests/"],     // path parts the instrumenter leaves alone
//     "backend": "runtime",
//     "timeouts": {"build": 600, "test": 10, "fault": 120}   // seconds
//   }
// Placeholders in the commands: {source} (the tree being built: the instrumented copy
// for the runtime backend), {build} (its build directory), {cflags} and {ldflags} (the
// backend's compile and link flags), {launcher} (-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
// when ccache is on PATH, else empty), {jobs} (parallel compile jobs). "{{" is a '{'.
// Only name, configure, build and test_binary (or test_list and test_command) are required.
struct Subject {
  std::filesystem::path file;  // the subject file itself (absolute)
  std::string name;
  std::string kind = "dl";
  std::filesystem::path root;  // absolute
  std::string configure;
  std::string build;
  std::string test_binary;
  std::string test_filter;
  // Tests that are neither CTest tests nor a GoogleTest binary's (a Catch or Boost.Test
  // binary, pytest over a coverage build, a script per case): "test_list" prints their
  // names, one a line, run in {build}; "test_command" runs one, `{}` standing for its name
  // (quoted for /bin/sh, as in `dlfl collect --cmd`), in {build}, one process per test
  // with the gcov or llvm backend's per-process coverage (in a reproduction recipe also
  // the runtime's). Both or neither; not with test_binary.
  std::string test_list;
  std::string test_command;
  std::vector<std::string> mutate_files{"src/**"};
  std::vector<std::string> mutate_exclude;
  std::vector<std::string> operators;  // operator names or bug types; empty = all
  std::vector<std::string> instrument_exclude{"tests/"};
  Backend backend = Backend::runtime;
  std::chrono::seconds build_timeout{600};
  std::chrono::seconds test_timeout{10};    // one test
  std::chrono::seconds fault_timeout{120};  // all tests of one fault
  // Real projects' build habits. url_map: URL -> local copy (a path, made absolute
  // against the file's folder) that git fetches instead, for configure-time downloads
  // (FetchContent, ExternalProject, submodules: download_detection.h); cmake_args: for
  // {cmake_args} ("cxx_standard": N adds -DCMAKE_CXX_STANDARD=N first); extra_cflags:
  // appended to {cflags} ("cflags": "-Wno-error -fpermissive"; letters, digits and
  // _=+,.:/@%- only, since {cflags} stands unquoted or inside quotes in commands).
  // In a recipe a local path may start with {repos}/: the clones' directory of `bugset
  // reproduce --repos`, so a recipe in a repository names the submodules' clones beside
  // the project's (kept verbatim here; resolve_repos_placeholder resolves it).
  std::map<std::string, std::string> url_map;
  // url_pin (recipes): URL of url_map -> the git revision of its clone that the build's
  // moving or missing branches resolve to, instead of the clone's commit as of the buggy
  // commit's date (download_pinning.h); "none" uses the clone as it is.
  std::map<std::string, std::string> url_pin;
  // submodules: the paths of the submodules a checkout fetches (recursively), for a
  // project whose optional parts are submodules it does not need to build and test
  // (ncnn's glslang, for Vulkan only); unset = every submodule, empty = none.
  std::optional<std::vector<std::string>> submodules;
  // prepare (recipes): a command that adapts a checked-out version to this machine's
  // toolchain (an older project's source edited as its later versions did), run in the
  // checkout after every checkout and its submodules, before configure; so the buggy
  // version that the mutation analysis parses and copies has the edits too, which a
  // "build" command's own edits would not give it. Empty: none.
  std::string prepare;
  std::vector<std::string> cmake_args;
  std::string extra_cflags;
};

// Parses a subject file's text; `file` (absolute) resolves `root` and names errors.
// Throws dlfl::Error "FILE: what" for malformed JSON, a missing or mistyped field, an
// unknown field, kind or backend, a bad name, a placeholder the commands do not know,
// or a non-positive timeout.
Subject parse_subject(std::string_view text, const std::filesystem::path& file);
// Reads and parses the file (made absolute); throws dlfl::Error naming it when unreadable.
Subject read_subject(const std::filesystem::path& file);

// A reproduction recipe (`dlfl bugset reproduce --recipe FILE`): the same file, read with
// the generic recipe's values as defaults, so every field is optional: "configure" and
// "build" default to generic_recipe()'s, "backend" to gcov, and without "test_binary"
// or "test_command" the tests are the build's CTest tests. Throws as parse_subject does.
Subject parse_recipe(std::string_view text, const std::filesystem::path& file);
inline constexpr std::string_view kReposPlaceholder = "{repos}";
// In a recipe's test_list and test_command, {fix_tests} is the test files the bug's fix
// adds or changes (eval::BugCandidacy::test_files), each a quoted word; the value of
// vars["fix_tests"] for expand_command is those paths one a line.
inline constexpr std::string_view kFixTestsPlaceholder = "fix_tests";
// The recipe's url_map with each "{repos}/FOLDER" made `repos`/FOLDER (absolute).
void resolve_repos_placeholder(Subject& recipe, const std::filesystem::path& repos);
Subject read_recipe(const std::filesystem::path& file);

// The largest subject file or recipe read (1 MiB), refused before it is read: one holds a
// few commands in a few KB. JSON nested deeper than io::kMaxJsonDepth is refused before
// parsing, by parse_subject and parse_recipe too.
inline constexpr std::size_t kMaxSubjectFileBytes = std::size_t{1} << 20;

// The generic CMake recipe: configure with Ninja at -O0 with the backend's flags (and the
// compilation database), build everything, run the CTest tests with per-test gcov;
// timeouts: build 4 h, one test 300 s, a version's tests 2 h.
Subject generic_recipe();

// The command with every {name} replaced by vars[name]: {source}, {build} and any other
// value quoted for /bin/sh where it stands (collect::quote_for_shell), so a path with
// blanks or `$(...)` stays one word; {cflags}, {ldflags}, {launcher} and {jobs}, dlfl's own
// word lists, as they are; {fix_tests} each line of its value a quoted word ("./" before
// a leading '-', so no path reads as an option); "{{" is a literal '{'. Throws
// dlfl::Error for an unknown placeholder, an unclosed '{', a placeholder after a
// backslash or {fix_tests} inside quotes.
std::string expand_command(std::string_view command, const std::map<std::string, std::string>& vars);

}  // namespace dlfl::bench
