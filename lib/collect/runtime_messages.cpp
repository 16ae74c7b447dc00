// Reading the listener's failure messages file (dlfl_rt_messages.h).
#include "dlfl/collect/runtime_messages.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>

#include "dlfl/error.h"
#include "dlfl_rt/dlfl_rt_messages.h"

namespace dlfl::collect {
namespace {

// The bytes of `path` from `offset` to its end now.
std::string read_from(const std::filesystem::path& path, std::uint64_t offset) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(path.string(), 0, "cannot open the failure messages file: " + std::string(std::strerror(errno)));
  std::string bytes;
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  if (ok && static_cast<std::uint64_t>(st.st_size) > offset) {
    bytes.resize(static_cast<std::size_t>(static_cast<std::uint64_t>(st.st_size) - offset));
    std::size_t done = 0;
    while (ok && done < bytes.size()) {
      const ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // shorter than fstat said: what was read is what there is
      done += static_cast<std::size_t>(n);
    }
    bytes.resize(done);
  }
  ::close(fd);
  if (!ok) throw Error(path.string(), 0, "cannot read the failure messages file");
  return bytes;
}

}  // namespace

void RuntimeMessagesReader::read_more(const std::filesystem::path& path, RuntimeMessages& messages) {
  const std::string name = path.string();
  const std::string bytes = read_from(path, offset_);
  const std::string_view text = bytes;
  std::size_t at = 0;
  if (offset_ == 0) {
    constexpr std::string_view kHeader = DLFL_RT_MESSAGES_MAGIC "\n";
    if (!text.starts_with(kHeader)) {
      if (kHeader.starts_with(text)) return;  // the header is still being written
      throw Error(name, 1, "not a dlfl runtime messages file");
    }
    at = kHeader.size();
    line_ = 2;
  }
  while (at < text.size()) {
    const std::size_t eol = text.find('\n', at);
    if (eol == std::string_view::npos) break;  // cut short, or still being written
    const std::string_view head = text.substr(at, eol - at);
    constexpr std::string_view kKind = "failure\t";
    const std::size_t tab = head.rfind('\t');
    std::size_t length = 0;
    const auto digits = head.substr(tab == std::string_view::npos ? 0 : tab + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), length);
    if (!head.starts_with(kKind) || tab < kKind.size() || ec != std::errc() || end != digits.data() + digits.size())
      throw Error(name, line_, "malformed failure record");
    const std::size_t body = eol + 1;
    // Its message and newline are there (a length of 2^64 - 1 must not wrap around to 0).
    if (length >= text.size() - body) break;  // cut short, or still being written
    if (text[body + length] != '\n') throw Error(name, line_, "failure record longer than its declared length");
    const std::string_view message = text.substr(body, length);
    messages[std::string(head.substr(kKind.size(), tab - kKind.size()))].emplace_back(message);
    for (const char c : message) line_ += c == '\n';
    line_ += 2;
    at = body + length + 1;
  }
  offset_ += at;
}

RuntimeMessages read_runtime_messages(const std::filesystem::path& path) {
  RuntimeMessages messages;
  RuntimeMessagesReader().read_more(path, messages);
  return messages;
}

}  // namespace dlfl::collect
