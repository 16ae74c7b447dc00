// Bug set model helpers: change-type names, agreed labels, fix size and the ground truth
// a fix implies.
#include "dlfl/lab/eval/bugset.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <utility>

namespace dlfl::eval {
namespace {

constexpr std::array<std::string_view, 6> change_type_names = {"ADD",    "COPY",   "DELETE",
                                                               "MODIFY", "RENAME", "UNKNOWN"};

// The changed method that holds deleted line `line`: the innermost (shortest) one, since
// a nested function's line is also listed under the function around it.
const ChangedMethod* method_deleting(const FileChange& file, std::uint32_t line) {
  const ChangedMethod* best = nullptr;
  for (const ChangedMethod& method : file.methods) {
    if (!std::binary_search(method.deleted_lines.begin(), method.deleted_lines.end(), line)) continue;
    if (!best || method.end_line - method.start_line < best->end_line - best->start_line) best = &method;
  }
  return best;
}

// The extension as written, with its dot; empty when the file name has none.
std::string_view extension_of(std::string_view path) noexcept {
  const std::size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  return name.substr(dot);
}

}  // namespace

std::string_view to_string(ChangeType type) noexcept {
  return change_type_names[static_cast<std::size_t>(type)];
}

std::optional<ChangeType> parse_change_type(std::string_view text) noexcept {
  for (std::size_t k = 0; k < change_type_names.size(); ++k)
    if (change_type_names[k] == text) return static_cast<ChangeType>(k);
  return std::nullopt;
}

AnnotatorLabels agreed_labels(const AnnotatorLabels& first, const AnnotatorLabels& second) {
  AnnotatorLabels agreed;
  if (first.dl_bug && first.dl_bug == second.dl_bug) agreed.dl_bug = first.dl_bug;
  if (!first.dl_bug_type.empty() && first.dl_bug_type == second.dl_bug_type)
    agreed.dl_bug_type = first.dl_bug_type;
  if (first.extrinsic && first.extrinsic == second.extrinsic) agreed.extrinsic = first.extrinsic;
  return agreed;
}

std::vector<ChangeType> change_types(const BugReport& bug) {
  std::array<bool, change_type_names.size()> seen{};
  for (const FileChange& file : bug.files) seen[static_cast<std::size_t>(file.change_type)] = true;
  std::vector<ChangeType> types;
  for (std::size_t k = 0; k < seen.size(); ++k)
    if (seen[k]) types.push_back(static_cast<ChangeType>(k));
  return types;
}

std::size_t changed_line_count(const BugReport& bug) noexcept {
  std::size_t count = 0;
  for (const FileChange& file : bug.files) count += file.added_lines.size() + file.deleted_lines.size();
  return count;
}

const BugReport* find_bug(const std::vector<BugReport>& bugs, std::string_view id) noexcept {
  const auto it = std::find_if(bugs.begin(), bugs.end(), [&](const BugReport& bug) { return bug.id == id; });
  return it == bugs.end() ? nullptr : &*it;
}

std::vector<GroundTruthItem> ground_truth(const BugReport& bug, const GroundTruthOptions& options) {
  std::vector<GroundTruthItem> items;
  // Two entries can name one file (a copy and a modify of the same source).
  std::set<std::pair<std::string, std::uint32_t>> seen;
  auto add = [&](const std::string& file, std::uint32_t line, std::string function) {
    if (seen.emplace(file, line).second) items.push_back({file, line, std::move(function)});
  };
  auto add_file = [&](const std::string& file) { add(file, 0, {}); };
  for (const FileChange& file : bug.files) {
    if (options.keep_file && !options.keep_file(file.path())) continue;
    if (!file.deleted_lines.empty()) {
      for (const std::uint32_t line : file.deleted_lines) {
        const ChangedMethod* method = method_deleting(file, line);
        add(file.old_name, line, method ? method->name : std::string());
      }
      continue;
    }
    switch (file.change_type) {
      case ChangeType::add:
        if (options.added_files) add_file(file.new_name);
        break;
      case ChangeType::delete_:
        if (options.deleted_files) add_file(file.old_name);
        break;
      case ChangeType::rename:
      case ChangeType::copy:
        if (!file.added_lines.empty() ? options.omission_files : options.renamed_files)
          add_file(file.old_name);
        break;
      case ChangeType::modify:
      case ChangeType::unknown:
        if (options.omission_files && !file.added_lines.empty()) add_file(file.old_name);
        break;
    }
  }
  return items;
}

std::string file_extension(std::string_view path) {
  std::string extension(extension_of(path));
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension;
}

bool is_native_source(std::string_view path) noexcept {
  static constexpr std::array<std::string_view, 15> native = {
      ".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++",
      ".inl", ".ipp", ".tpp", ".cu", ".cuh"};
  const std::string_view extension = extension_of(path);
  return std::any_of(native.begin(), native.end(), [&](std::string_view candidate) {
    return std::equal(candidate.begin(), candidate.end(), extension.begin(), extension.end(),
                      [](char a, char b) {
                        return a == std::tolower(static_cast<unsigned char>(b));
                      });
  });
}

}  // namespace dlfl::eval
