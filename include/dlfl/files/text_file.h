// Reading input files the one way every reader shares: regular files only (checked before
// anything can block), a UTF-8 byte-order mark dropped from text, and bounds on what one
// record or line may hold.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace dlfl::io {

// The longest element name, test name or CSV/JSON field a reader accepts (1 MiB): real
// names are far shorter (long C++ template names run to a few KiB); the bound keeps a
// corrupt file with a gigabyte-long "name" from costing several copies of it in memory.
inline constexpr std::size_t kMaxFieldBytes = std::size_t{1} << 20;

// The longest line of a CSV file of records (2 MiB): one field at kMaxFieldBytes beside a
// few short ones, quotes and all.
inline constexpr std::size_t kMaxCsvLineBytes = 2 * kMaxFieldBytes;

// Throws dlfl::Error(source, line, "... longer than the 1 MiB limit") when `size` is
// over kMaxFieldBytes; `what` names the thing ("element name", "field").
void check_field_size(std::size_t size, std::string_view what, const std::string& source, std::size_t line);

// An open input file: the one place a user-given path is opened for reading. The path is
// opened non-blocking and checked with fstat before any read, so a FIFO, a terminal or a
// device such as /dev/zero is refused at once instead of hanging or growing without end.
// Owns the descriptor (closed by the destructor); `size` is in bytes.
class InputFile {
 public:
  // Throws dlfl::Error(path, 0, ...) naming the reason in one line: "is a directory",
  // "not a regular file", or the errno text (missing, permissions).
  explicit InputFile(const std::filesystem::path& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  int fd() const noexcept { return fd_; }
  std::size_t size() const noexcept { return size_; }
  const std::string& name() const noexcept { return name_; }
  // Up to `capacity` bytes into `buffer` (0 at the end); retries EINTR. Throws
  // dlfl::Error(name, 0, "cannot read: ...") on an I/O error.
  std::size_t read(char* buffer, std::size_t capacity);

 private:
  std::string name_;
  int fd_ = -1;
  std::size_t size_ = 0;
};

// A text file read line by line in fixed-size chunks, so that memory stays bounded by the
// longest line allowed, whatever the file holds: garbage (a gigabyte without a line break,
// NUL bytes) is refused after reading at most `max_line_bytes` of it. Lines come without
// their '\n' and a trailing '\r'; a UTF-8 byte-order mark at the start is dropped.
class TextFileLines {
 public:
  // Opens as InputFile. `what` names a line in the error for one too long ("line",
  // "matrix row").
  explicit TextFileLines(const std::filesystem::path& path, std::size_t max_line_bytes = kMaxFieldBytes,
                         std::string_view what = "line");

  // The next line, valid until the next call; false at the end of the file. Throws
  // dlfl::Error(name, line, "WHAT longer than the N limit") for a line over the bound.
  bool next(std::string_view& line);
  // 1-based number of the line last returned.
  std::size_t line_number() const noexcept { return line_; }
  const std::string& name() const noexcept { return file_.name(); }
  // A new bound for the lines after this one (a reader learns a matrix's width from its
  // header).
  void set_max_line_bytes(std::size_t max_line_bytes) noexcept { max_line_ = max_line_bytes; }

 private:
  bool fill();  // reads one more chunk; false at the end of the file

  InputFile file_;
  std::size_t max_line_;
  std::string what_;
  std::string buffer_;
  std::size_t start_ = 0;  // first byte of buffer_ not yet returned
  std::size_t line_ = 0;
  bool eof_ = false;
};

// The file's bytes, unchanged. Throws dlfl::Error(path, 0, ...) when it cannot be read,
// naming the reason in one line, as InputFile (and "cannot read: ..." for an I/O error).
std::string read_file_bytes(const std::filesystem::path& path);

// The file as text: its bytes with a leading UTF-8 byte-order mark removed (Windows
// editors and Excel write one), so every text reader treats a BOM alike. Throws as
// read_file_bytes.
std::string read_text_file(const std::filesystem::path& path);

// As read_text_file, but first calls `check_start` with the file's first bytes (up to
// kMaxFieldBytes, BOM dropped; fewer only when the file is shorter) and reads the rest only
// when it returns: a reader that can tell garbage by its start (a format's header) throws
// there, after a bounded read, instead of after loading a file of any size.
std::string read_text_file(const std::filesystem::path& path,
                           const std::function<void(std::string_view start)>& check_start);

// Size bounds of whole-file reads, for read_text_file below.
// kNoLineBound: lines of any length (JSON documents, which may be one line).
inline constexpr std::size_t kNoLineBound = static_cast<std::size_t>(-1);

// The file as text (BOM dropped), read only when it can be held: a file over `max_bytes`
// (fstat, before any read; and while reading, should it grow) is
// dlfl::Error(path, 0, "WHAT of N bytes is larger than the M MiB limit"), and a line over
// `max_line_bytes` is dlfl::Error(path, LINE, "line longer than the M MiB limit") as soon as
// that many bytes without a line break have been read. Memory is at most max_bytes, and a
// file of garbage without line breaks costs max_line_bytes. `what` names the document
// ("recipe", "call graph"). Throws as read_file_bytes otherwise.
std::string read_text_file(const std::filesystem::path& path, std::size_t max_bytes, std::string_view what,
                           std::size_t max_line_bytes = kNoLineBound);

// As read_text_file, but the bytes unchanged (a BOM kept).
std::string read_file_bytes(const std::filesystem::path& path, std::size_t max_bytes, std::string_view what,
                            std::size_t max_line_bytes = kNoLineBound);

// "1 MiB" for a whole number of MiB (GiB likewise), else "N-byte": a bound as the errors
// name it.
std::string limit_text(std::size_t bytes);

// `text` without a leading UTF-8 byte-order mark.
std::string_view without_bom(std::string_view text) noexcept;

}  // namespace dlfl::io
