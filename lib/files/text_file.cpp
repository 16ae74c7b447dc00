// Reading input files (include/dlfl/files/text_file.h).
#include "dlfl/files/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "dlfl/error.h"

namespace dlfl::io {

void check_field_size(std::size_t size, std::string_view what, const std::string& source, std::size_t line) {
  if (size > kMaxFieldBytes)
    throw Error(source, line,
                std::string(what) + " of " + std::to_string(size) + " bytes is longer than the " +
                    std::to_string(kMaxFieldBytes >> 20) + " MiB limit");
}

InputFile::InputFile(const std::filesystem::path& path) : name_(path.string()) {
  auto fail = [&](const std::string& why) { throw Error(name_, 0, why); };
  // O_NONBLOCK: open() of a FIFO without a writer would block before fstat could tell.
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) fail("cannot read: " + std::system_category().message(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    fail("cannot read: " + std::system_category().message(err));
  }
  // Checked before reading: read() on a directory fails with a confusing EISDIR deep in
  // a stream, and a FIFO or device could block or never end.
  if (S_ISDIR(st.st_mode)) {
    ::close(fd_);
    fail("is a directory, expected a file");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    fail("not a regular file");
  }
  size_ = static_cast<std::size_t>(st.st_size);
}

InputFile::~InputFile() { ::close(fd_); }

std::size_t InputFile::read(char* buffer, std::size_t capacity) {
  for (;;) {
    const ssize_t n = ::read(fd_, buffer, capacity);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno == EINTR) continue;
    throw Error(name_, 0, "cannot read: " + std::system_category().message(errno));
  }
}

namespace {

// Appends what is left of `file` to `text`, and at most `limit` bytes in all.
void read_into(InputFile& file, std::string& text, std::size_t limit = std::string::npos) {
  char buffer[1 << 16];
  while (text.size() < limit) {
    const std::size_t n = file.read(buffer, std::min(sizeof buffer, limit - text.size()));
    if (n == 0) break;
    text.append(buffer, n);
  }
}

}  // namespace

std::string read_file_bytes(const std::filesystem::path& path) {
  InputFile file(path);
  std::string text;
  if (file.size() > 0) text.reserve(file.size());
  read_into(file, text);
  return text;
}

std::string read_text_file(const std::filesystem::path& path,
                           const std::function<void(std::string_view start)>& check_start) {
  InputFile file(path);
  std::string text;
  read_into(file, text, kMaxFieldBytes + 3);  // + a byte-order mark
  check_start(without_bom(text).substr(0, kMaxFieldBytes));
  if (file.size() > text.size()) text.reserve(file.size());
  read_into(file, text);
  if (without_bom(text).size() != text.size()) text.erase(0, 3);
  return text;
}

std::string limit_text(std::size_t bytes) {
  constexpr std::size_t kMiB = std::size_t{1} << 20, kGiB = std::size_t{1} << 30;
  if (bytes % kGiB == 0) return std::to_string(bytes / kGiB) + " GiB";
  if (bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + "-byte";
}

namespace {

// The file's bytes, bounded as read_text_file's doc says.
std::string read_bounded(const std::filesystem::path& path, std::size_t max_bytes, std::string_view what,
                         std::size_t max_line_bytes) {
  InputFile file(path);
  auto too_large = [&](std::size_t size) {
    return Error(file.name(), 0,
                 std::string(what) + " of " + std::to_string(size) + " bytes is larger than the " +
                     limit_text(max_bytes) + " limit");
  };
  if (file.size() > max_bytes) throw too_large(file.size());  // before reading a byte
  std::string text;
  text.reserve(file.size());
  std::size_t line = 1, line_start = 0;  // of the line not yet ended
  char buffer[1 << 16];
  for (;;) {
    // One byte past the bound is enough to tell a file that grew since fstat.
    const std::size_t n = file.read(buffer, std::min(sizeof buffer, max_bytes + 1 - std::min(max_bytes, text.size())));
    if (n == 0) break;
    const std::size_t from = text.size();
    text.append(buffer, n);
    if (text.size() > max_bytes) throw too_large(text.size());
    if (max_line_bytes == kNoLineBound) continue;
    if (from == 0) line_start = text.size() - without_bom(text).size();
    for (std::size_t at = from;;) {
      const std::size_t end = text.find('\n', at);
      if ((end == std::string::npos ? text.size() : end) - line_start > max_line_bytes)
        throw Error(file.name(), line, "line longer than the " + limit_text(max_line_bytes) + " limit");
      if (end == std::string::npos) break;
      ++line;
      at = line_start = end + 1;
    }
  }
  return text;
}

}  // namespace

std::string read_file_bytes(const std::filesystem::path& path, std::size_t max_bytes, std::string_view what,
                            std::size_t max_line_bytes) {
  return read_bounded(path, max_bytes, what, max_line_bytes);
}

std::string read_text_file(const std::filesystem::path& path, std::size_t max_bytes, std::string_view what,
                           std::size_t max_line_bytes) {
  std::string text = read_bounded(path, max_bytes, what, max_line_bytes);
  if (without_bom(text).size() != text.size()) text.erase(0, 3);
  return text;
}

TextFileLines::TextFileLines(const std::filesystem::path& path, std::size_t max_line_bytes, std::string_view what)
    : file_(path), max_line_(max_line_bytes), what_(what) {}

bool TextFileLines::fill() {
  if (eof_) return false;
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  if (start_ > 0) {  // drop the lines already returned before growing
    buffer_.erase(0, start_);
    start_ = 0;
  }
  const std::size_t used = buffer_.size();
  buffer_.resize(used + kChunk);
  const std::size_t n = file_.read(buffer_.data() + used, kChunk);
  buffer_.resize(used + n);
  if (n == 0) eof_ = true;
  if (line_ == 0 && used == 0 && n > 0) {
    const std::size_t bom = buffer_.size() - without_bom(buffer_).size();
    start_ = bom;
  }
  return n > 0;
}

bool TextFileLines::next(std::string_view& line) {
  std::size_t searched = start_;  // the bytes before it hold no line break
  for (;;) {
    const std::size_t end = buffer_.find('\n', searched);
    const std::size_t length = (end == std::string::npos ? buffer_.size() : end) - start_;
    if (length > max_line_) {
      throw Error(file_.name(), line_ + 1, what_ + " longer than the " + limit_text(max_line_) + " limit");
    }
    if (end != std::string::npos) {
      line = std::string_view(buffer_).substr(start_, length);
      start_ = end + 1;
      break;
    }
    if (!fill()) {
      if (start_ >= buffer_.size()) return false;
      line = std::string_view(buffer_).substr(start_);  // the last line, without a '\n'
      start_ = buffer_.size();
      break;
    }
    searched = start_ + length;  // fill() moves the unread bytes to the front
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++line_;
  return true;
}

std::string_view without_bom(std::string_view text) noexcept {
  constexpr std::string_view bom = "\xEF\xBB\xBF";
  if (text.starts_with(bom)) text.remove_prefix(bom.size());
  return text;
}

std::string read_text_file(const std::filesystem::path& path) {
  std::string text = read_file_bytes(path);
  if (without_bom(text).size() != text.size()) text.erase(0, 3);
  return text;
}

}  // namespace dlfl::io
