// Reading input files (include/dlfl/io/text_file.h).
#include "dlfl/io/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

std::string read_file_bytes(const std::filesystem::path& path) {
  auto fail = [&](const std::string& why) -> std::string { throw Error(path.string(), 0, why); };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail("cannot read: " + std::system_category().message(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return fail("cannot read: " + std::system_category().message(err));
  }
  // Checked before reading: read() on a directory fails with a confusing EISDIR deep in
  // a stream, and a FIFO or device could block or never end.
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return fail("is a directory, expected a file");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail("not a regular file");
  }
  std::string text;
  if (st.st_size > 0) text.reserve(static_cast<std::size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return fail("cannot read: " + std::system_category().message(err));
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
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
