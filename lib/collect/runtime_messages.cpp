// Reading the listener's failure messages file (dlfl_rt_messages.h).
#include "dlfl/collect/runtime_messages.h"

#include <charconv>
#include <string_view>

#include "dlfl/error.h"
#include "dlfl/io/text_file.h"
#include "dlfl_rt/dlfl_rt_messages.h"

namespace dlfl::collect {

RuntimeMessages read_runtime_messages(const std::filesystem::path& path) {
  const std::string name = path.string();
  const std::string bytes = io::read_file_bytes(path);
  const std::string_view text = bytes;
  constexpr std::string_view kHeader = DLFL_RT_MESSAGES_MAGIC "\n";
  if (!text.starts_with(kHeader)) throw Error(name, 1, "not a dlfl runtime messages file");
  RuntimeMessages messages;
  std::size_t line = 2;
  for (std::size_t at = kHeader.size(); at < text.size();) {
    const std::size_t eol = text.find('\n', at);
    if (eol == std::string_view::npos) break;  // cut short
    const std::string_view head = text.substr(at, eol - at);
    constexpr std::string_view kKind = "failure\t";
    const std::size_t tab = head.rfind('\t');
    std::size_t length = 0;
    const auto digits = head.substr(tab == std::string_view::npos ? 0 : tab + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), length);
    if (!head.starts_with(kKind) || tab < kKind.size() || ec != std::errc() || end != digits.data() + digits.size())
      throw Error(name, line, "malformed failure record");
    const std::size_t body = eol + 1;
    if (text.size() - body < length + 1) break;  // cut short
    if (text[body + length] != '\n') throw Error(name, line, "failure record longer than its declared length");
    const std::string_view message = text.substr(body, length);
    messages[std::string(head.substr(kKind.size(), tab - kKind.size()))].emplace_back(message);
    for (const char c : message) line += c == '\n';
    line += 2;
    at = body + length + 1;
  }
  return messages;
}

}  // namespace dlfl::collect
