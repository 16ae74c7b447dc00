// Shapes of the names a bug manifest may hold (include/dlfl/lab/eval/bugset_names.h).
#include "dlfl/lab/eval/bugset_names.h"

namespace dlfl::eval {
namespace {

bool alnum(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

bool name_shaped(std::string_view name, std::size_t max_size, std::string_view punctuation) noexcept {
  if (name.empty() || name.size() > max_size || !alnum(name.front())) return false;
  for (const char c : name)
    if (!alnum(c) && punctuation.find(c) == std::string_view::npos) return false;
  // "owner+repo" becomes the path owner/repo when clones are looked up: no part of a name
  // may be "..", whatever separates it ("x+..", "a#..").
  return name.find("..") == std::string_view::npos;
}

}  // namespace

bool is_valid_project_name(std::string_view name) noexcept { return name_shaped(name, 128, "._-+"); }

bool is_valid_bug_id(std::string_view id) noexcept { return name_shaped(id, 200, "._-+#"); }

std::string repository_path_problem(std::string_view path) {
  if (path.empty()) return "is empty";
  if (path.size() > 4096) return "is longer than 4096 bytes";
  if (path.front() == '/') return "is absolute";
  for (const char c : path)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "holds a control character";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view part = path.substr(start, end - start);
    if (part.empty()) return "has an empty component";
    if (part == "." || part == "..") return "has a \"" + std::string(part) + "\" component";
    start = end + 1;
  }
  return "";
}

}  // namespace dlfl::eval
