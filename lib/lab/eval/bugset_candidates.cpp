// Reproduction candidates of a bug set (include/dlfl/lab/eval/bugset_candidates.h).
#include "dlfl/lab/eval/bugset_candidates.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace dlfl::eval {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool test_directory(std::string_view name) {
  static constexpr std::array<std::string_view, 7> names = {"test",      "tests",    "testing", "unittest",
                                                            "unittests", "testdata", "test_data"};
  const std::string l = lower(name);
  return std::find(names.begin(), names.end(), l) != names.end();
}

bool test_file(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  const std::string_view stem = dot == std::string_view::npos || dot == 0 ? name : name.substr(0, dot);
  const std::string l = lower(stem);
  if (l == "test" || l == "tests" || l.starts_with("test_")) return true;
  for (const std::string_view suffix : {"_test", "_tests", "_unittest", "-test"})
    if (l.ends_with(suffix)) return true;
  // CamelCase: FooTest.cpp, FooTests.cpp (case-sensitive: "latest.cc" is no test).
  return stem.size() > 4 && (stem.ends_with("Test") || stem.ends_with("Tests"));
}

}  // namespace

bool is_test_path(std::string_view path) noexcept {
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view part = path.substr(start, end - start);
    if (end == path.size()) return test_file(part);
    if (test_directory(part)) return true;
    start = end + 1;
  }
  return false;
}

GroundTruthOptions reproduction_truth_options() {
  GroundTruthOptions options;
  options.keep_file = [](std::string_view path) { return is_native_source(path) && !is_test_path(path); };
  return options;
}

BugCandidacy bug_candidacy(const BugReport& bug) {
  BugCandidacy c;
  c.native_truth = ground_truth(bug, reproduction_truth_options());
  for (const FileChange& file : bug.files) {
    if (!is_test_path(file.path())) continue;
    if (file.change_type == ChangeType::delete_) c.deleted_test_files.push_back(file.old_name);
    else c.test_files.push_back(file.new_name);
    // A test renamed away from its old place leaves nothing behind there either.
    if (file.change_type == ChangeType::rename && !file.old_name.empty() && file.old_name != file.new_name)
      c.deleted_test_files.push_back(file.old_name);
  }
  return c;
}

}  // namespace dlfl::eval
