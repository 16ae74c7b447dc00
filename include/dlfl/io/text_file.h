// Reading input files the one way every reader shares: regular files only, one read,
// a UTF-8 byte-order mark dropped from text, and bounds on what one record may hold.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace dlfl::io {

// The longest element name, test name or CSV/JSON field a reader accepts (1 MiB): real
// names are far shorter (long C++ template names run to a few KiB); the bound keeps a
// corrupt file with a gigabyte-long "name" from costing several copies of it in memory.
inline constexpr std::size_t kMaxFieldBytes = std::size_t{1} << 20;

// Throws dlfl::Error(source, line, "... longer than the 1 MiB limit") when `size` is
// over kMaxFieldBytes; `what` names the thing ("element name", "field").
void check_field_size(std::size_t size, std::string_view what, const std::string& source, std::size_t line);

// The file's bytes, unchanged. Throws dlfl::Error(path, 0, ...) when it cannot be read,
// naming the reason in one line: "is a directory", "not a regular file", or the errno
// text (missing, permissions, I/O error).
std::string read_file_bytes(const std::filesystem::path& path);

// The file as text: its bytes with a leading UTF-8 byte-order mark removed (Windows
// editors and Excel write one), so every text reader treats a BOM alike. Throws as
// read_file_bytes.
std::string read_text_file(const std::filesystem::path& path);

// `text` without a leading UTF-8 byte-order mark.
std::string_view without_bom(std::string_view text) noexcept;

}  // namespace dlfl::io
