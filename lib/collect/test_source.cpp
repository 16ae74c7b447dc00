// Test sources: GoogleTest listings and filters, name lists with a command template.
#include "dlfl/collect/test_source.h"

#include <fmt/format.h>

#include <fstream>
#include <unordered_set>

#include "dlfl/collect/process.h"
#include "dlfl/error.h"
#include "dlfl/files/text_file.h"
#include "dlfl/printable.h"

namespace dlfl::collect {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::string_view first_word(std::string_view s) {
  const auto end = s.find_first_of(" \t\r");
  return end == std::string_view::npos ? s : s.substr(0, end);
}

bool disabled(std::string_view name) { return name.starts_with("DISABLED_"); }

// GoogleTest's wildcard match (`*`, `?`), iterative with one backtrack point.
bool wildcard_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool any_pattern_matches(std::string_view patterns, std::string_view name) {
  std::size_t start = 0;
  for (;;) {
    const auto end = patterns.find(':', start);
    const auto pattern = patterns.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (wildcard_match(pattern, name)) return true;
    if (end == std::string_view::npos) return false;
    start = end + 1;
  }
}

// Variables that would make a single-test run run something else or write elsewhere.
const std::vector<std::string> kGtestEnvUnset = {"GTEST_FILTER", "GTEST_OUTPUT", "GTEST_SHARD_INDEX",
                                                 "GTEST_TOTAL_SHARDS", "GTEST_ALSO_RUN_DISABLED_TESTS",
                                                 "GTEST_REPEAT", "GTEST_SHUFFLE"};

}  // namespace

std::vector<std::string> listing_coverage_env(const std::filesystem::path& dir) {
  return {"GCOV_PREFIX=" + dir.string(), "GCOV_PREFIX_STRIP=0", "LLVM_PROFILE_FILE=" + (dir / "%p.profraw").string()};
}

Shard parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  Shard shard;
  auto number = [](std::string_view digits, std::size_t& out) {
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos)
      return false;
    out = std::stoul(std::string(digits));
    return true;
  };
  if (slash == std::string_view::npos || !number(text.substr(0, slash), shard.index) ||
      !number(text.substr(slash + 1), shard.count) || shard.count == 0 || shard.index >= shard.count)
    throw Error(fmt::format("--shard '{}': expected I/N with 0 <= I < N, e.g. 0/4 for the first of four shards", text));
  return shard;
}

bool gtest_shard_holds(const Shard& shard, std::size_t position) noexcept {
  return position % shard.count == shard.index;
}

bool name_shard_holds(const Shard& shard, std::string_view name) noexcept {
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a, 64 bits
  for (const unsigned char c : name) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h % shard.count == shard.index;
}

std::vector<std::string> parse_gtest_list(std::string_view listing) {
  std::vector<std::string> names;
  std::string suite;  // empty: not inside a suite (or a disabled one)
  bool in_suite = false;
  std::size_t pos = 0;
  while (pos < listing.size()) {
    auto end = listing.find('\n', pos);
    if (end == std::string_view::npos) end = listing.size();
    std::string_view line = listing.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("  ")) {
      // A test of the current suite: `  Name` or `  Name  # GetParam() = ...`.
      const auto name = first_word(line.substr(2));
      if (in_suite && !suite.empty() && !name.empty() && !disabled(name)) names.push_back(suite + std::string(name));
      continue;
    }
    // A suite: `Suite.` or `Suite/0.  # TypeParam = ...`; anything else ends the suite.
    const auto word = first_word(line);
    in_suite = word.size() > 1 && word.back() == '.';
    suite = in_suite && !disabled(word) ? std::string(word) : std::string();
  }
  return names;
}

bool gtest_filter_matches(std::string_view filter, std::string_view name) {
  const auto dash = filter.find('-');
  const auto positive = filter.substr(0, dash);
  const auto negative = dash == std::string_view::npos ? std::string_view{} : filter.substr(dash + 1);
  if (!positive.empty() && !any_pattern_matches(positive, name)) return false;
  return negative.empty() || !any_pattern_matches(negative, name);
}

std::vector<TestCommand> list_gtest_tests(const std::filesystem::path& binary, const std::vector<std::string>& env) {
  const std::string shown = binary.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(binary, ec))
    throw Error(shown, 0, "no such GoogleTest binary");
  // A bare name would be looked up on PATH; the user meant the file.
  const std::string program = binary.has_parent_path() ? shown : "./" + shown;
  ProcessSpec spec;
  spec.argv = {program, "--gtest_list_tests"};
  spec.env_set = env;
  spec.env_unset = kGtestEnvUnset;
  spec.timeout = std::chrono::seconds(60);
  spec.merge_stderr = false;
  spec.stdout_limit = SIZE_MAX;
  spec.output_interval = std::chrono::milliseconds(5);  // a flushed line per test
  const ProcessResult r = run_process(spec);
  if (!r.ok())
    throw Error(shown, 0,
                fmt::format("listing its tests (--gtest_list_tests) failed: {}{}", describe_end(r, spec.timeout),
                            r.err.empty() ? "" : ": " + std::string(trim(r.err.substr(0, 500)))));
  const auto names = parse_gtest_list(r.out);
  if (names.empty()) throw Error(shown, 0, "lists no test (is it a GoogleTest binary?)");
  std::vector<TestCommand> tests;
  tests.reserve(names.size());
  for (const auto& name : names) {
    TestCommand t;
    t.name = name;
    t.argv = {program, "--gtest_filter=" + name};
    t.gtest = true;
    tests.push_back(std::move(t));
  }
  return tests;
}

std::vector<std::string> read_test_list(const std::filesystem::path& file) {
  io::TextFileLines lines(file, io::kMaxFieldBytes, "test name");
  std::vector<std::string> names;
  std::unordered_set<std::string> seen;
  for (std::string_view line; lines.next(line);) {
    const auto name = trim(line);
    if (name.empty() || name.front() == '#') continue;
    // No environment variable can carry a NUL (instantiate_command passes names so).
    if (name.find('\0') != std::string_view::npos)
      throw Error(lines.name(), lines.line_number(),
                  fmt::format("test name '{}' holds a NUL byte", printable(excerpt(name))));
    if (!seen.emplace(name).second)
      throw Error(lines.name(), lines.line_number(), fmt::format("test '{}' is listed twice", excerpt(name)));
    names.emplace_back(name);
  }
  if (names.empty()) throw Error(lines.name(), 0, "the test list names no test");
  return names;
}

ShellCommand instantiate_command(std::string_view command_template, std::string_view name) {
  ShellCommand command;
  ShellQuoteTracker quoting;
  std::size_t pos = 0;
  for (;;) {
    const auto hole = command_template.find("{}", pos);
    const std::string_view literal = command_template.substr(pos, hole - pos);
    command.text.append(literal);
    quoting.feed(literal);
    if (hole == std::string_view::npos) break;
    const std::string reference = reference_for_shell(kTestNameVariable, quoting, "{}");
    command.text += reference;
    quoting.feed(reference);
    pos = hole + 2;
  }
  command.env.push_back(std::string(kTestNameVariable) + "=" + std::string(name));
  return command;
}

std::vector<TestCommand> make_template_commands(const std::vector<std::string>& names,
                                                std::string_view command_template) {
  if (command_template.find("{}") == std::string_view::npos)
    throw Error(fmt::format("the command template '{}' has no {{}} for the test name", command_template));
  std::vector<TestCommand> tests;
  tests.reserve(names.size());
  for (const auto& name : names) {
    ShellCommand command = instantiate_command(command_template, name);
    TestCommand t;
    t.name = name;
    t.argv = {"/bin/sh", "-c", std::move(command.text)};
    t.env = std::move(command.env);
    t.through_shell = true;
    tests.push_back(std::move(t));
  }
  return tests;
}

}  // namespace dlfl::collect
