// Companion records: SUFFIX SIZE XXH3 of each companion, written into the primary.
#include "dlfl/files/companion_files.h"

#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>

#include "dlfl/error.h"
#include "dlfl/files/text_file.h"

namespace dlfl::io::detail {
namespace fs = std::filesystem;
namespace {

std::string hex64(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

bool matches(const std::string& bytes, std::uint64_t size, std::string_view hash) {
  return bytes.size() == size && hex64(XXH3_64bits(bytes.data(), bytes.size())) == hash;
}

fs::path companion_path(const fs::path& primary, std::string_view suffix) {
  fs::path p = primary;
  return p.replace_extension(std::string(suffix));
}

}  // namespace

void (*after_companions_committed)() = nullptr;

std::string companion_digest(std::string_view bytes) { return hex64(XXH3_64bits(bytes.data(), bytes.size())); }

fs::path previous_companion_path(const fs::path& companion, std::string_view digest) {
  return companion.parent_path() / ("." + companion.filename().string() + ".prev-" + std::string(digest));
}

std::string companion_record(const AtomicFile& companion, std::string_view suffix) {
  if (companion.temp_path().empty()) return {};
  const std::string bytes = read_file_bytes(companion.temp_path());
  std::string record(suffix);
  record += ' ';
  record += std::to_string(bytes.size());
  record += ' ';
  record += hex64(XXH3_64bits(bytes.data(), bytes.size()));
  return record;
}

fs::path check_companion(const fs::path& primary, std::size_t line, std::string_view record,
                         std::initializer_list<std::string_view> known) {
  const std::string file = primary.string();
  const auto first = record.find(' ');
  const auto second = first == std::string_view::npos ? first : record.find(' ', first + 1);
  if (second == std::string_view::npos)
    throw Error(file, line, "malformed companion record (expected 'SUFFIX SIZE XXH3')");
  const std::string_view suffix = record.substr(0, first);
  const std::string_view size_text = record.substr(first + 1, second - first - 1);
  const std::string_view hash = record.substr(second + 1);
  std::uint64_t size = 0;
  const auto [end, ec] = std::from_chars(size_text.data(), size_text.data() + size_text.size(), size);
  if (ec != std::errc() || end != size_text.data() + size_text.size() || hash.size() != 16)
    throw Error(file, line, "malformed companion record (expected 'SUFFIX SIZE XXH3')");
  if (std::find(known.begin(), known.end(), suffix) == known.end())
    throw Error(file, line, "names an unknown companion '" + std::string(suffix) + "'");
  const fs::path path = companion_path(primary, suffix);
  const std::string bytes = read_file_bytes(path);
  if (matches(bytes, size, hash)) return path;
  // A write interrupted between its renames: the companion is already the new one, and
  // the one this (old) primary was written with was kept beside it.
  const fs::path previous = previous_companion_path(path, hash);
  std::error_code status;
  if (fs::is_regular_file(previous, status) && matches(read_file_bytes(previous), size, hash)) return previous;
  throw Error(file, line,
                path.filename().string() + " is not the one written with this file (" +
                    (bytes.size() != size ? std::to_string(bytes.size()) + " bytes, expected " + std::to_string(size)
                                          : std::string("its content differs")) +
                    "): an interrupted write left files of two outputs; write the output again (or, if " +
                    path.filename().string() + " was edited on purpose, delete this line)");
}

}  // namespace dlfl::io::detail
