// Step logs and failure tails (include/dlfl/lab/bench/step_log.h).
#include "dlfl/lab/bench/step_log.h"

#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/printable.h"

namespace dlfl::bench {

void keep_log(const std::filesystem::path& log_dir, const std::string& name, const std::string& output) {
  if (log_dir.empty()) return;
  try {
    std::filesystem::create_directories(log_dir);
    write_text(log_dir / name, output);
  } catch (const std::exception&) {
  }
}

std::string output_tail(const std::string& output, std::size_t lines) {
  std::size_t end = output.find_last_not_of("\r\n");
  if (end == std::string::npos) return "";
  std::size_t begin = end + 1;
  for (std::size_t n = 0; n < lines && begin > 0; ++n) {
    const auto nl = output.rfind('\n', begin - 1);
    begin = nl == std::string::npos ? 0 : nl;
    if (nl == std::string::npos) break;
  }
  std::string tail = output.substr(begin, end + 1 - begin);
  while (!tail.empty() && (tail.front() == '\n' || tail.front() == '\r')) tail.erase(0, 1);
  if (tail.size() > 2000) tail.erase(0, tail.size() - 2000);
  return printable(tail);
}

}  // namespace dlfl::bench
