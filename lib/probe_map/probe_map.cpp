// Reads and writes the probe map text format (see probe_map.h).
#include "dlfl/probe_map/probe_map.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string_view>

#include "dlfl/error.h"
#include "dlfl/files/text_file.h"  // kMaxFieldBytes only: this library links no dlfl_files

namespace dlfl::instrument {
namespace {

constexpr std::string_view kMagic = "dlfl-probe-map";

const char* space_name(ProbeSpace s) {
  switch (s) {
    case ProbeSpace::host: return "h";
    case ProbeSpace::device: return "d";
    case ProbeSpace::host_device: return "hd";
  }
  return "h";
}

// A line's tab-separated fields without allocating (a map has a line per site, ~10^6 in
// a framework): the first kMax kept, all counted.
struct Fields {
  static constexpr std::size_t kMax = 8;
  std::array<std::string_view, kMax> field;
  std::size_t count = 0;
  std::size_t size() const { return count; }
  std::string_view operator[](std::size_t i) const { return field[i]; }
};

Fields split_tabs(std::string_view line) {
  Fields f;
  std::size_t start = 0;
  while (true) {
    const std::size_t tab = line.find('\t', start);
    if (f.count < Fields::kMax) f.field[f.count] = line.substr(start, tab == std::string_view::npos ? tab : tab - start);
    ++f.count;
    if (tab == std::string_view::npos) return f;
    start = tab + 1;
  }
}

// The file's bytes, read whole (then cut into lines in place: getline per line was most of
// the read). This library links no dlfl_files, so the checks of io::InputFile and the
// bounds of io::read_text_file are repeated here: opened non-blocking and refused unless a
// regular file, before any read, so that a FIFO cannot hang the read and /dev/zero cannot
// fill memory; a file over kMaxProbeMapBytes refused before it is read, and a line over
// io::kMaxFieldBytes (no record of a map comes near it) as soon as that much of it is read.
std::string read_whole(const std::filesystem::path& path, const std::string& name) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw Error(name, 0, "cannot open the probe map");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const bool directory = S_ISDIR(st.st_mode);
    ::close(fd);
    throw Error(name, 0, directory ? "is a directory, expected a probe map file" : "not a regular file");
  }
  auto fail = [&](std::size_t line, const std::string& why) {
    ::close(fd);
    throw Error(name, line, why);
  };
  auto too_large = [&](std::size_t size) {
    fail(0, "probe map of " + std::to_string(size) + " bytes is larger than the " +
                std::to_string(kMaxProbeMapBytes >> 30) + " GiB limit");
  };
  if (static_cast<std::uint64_t>(st.st_size) > kMaxProbeMapBytes) too_large(static_cast<std::size_t>(st.st_size));
  std::string bytes;
  bytes.reserve(static_cast<std::size_t>(st.st_size));
  std::size_t line = 1, line_start = 0;  // of the line not yet ended
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(0, "cannot read the probe map");
    if (n == 0) break;
    const std::size_t from = bytes.size();
    bytes.append(chunk, static_cast<std::size_t>(n));
    if (bytes.size() > kMaxProbeMapBytes) too_large(bytes.size());  // grew since fstat
    for (std::size_t at = from;;) {
      const std::size_t end = bytes.find('\n', at);
      if ((end == std::string::npos ? bytes.size() : end) - line_start > io::kMaxFieldBytes)
        fail(line, "line longer than the 1 MiB limit");
      if (end == std::string::npos) break;
      ++line;
      at = line_start = end + 1;
    }
  }
  ::close(fd);
  return bytes;
}

template <typename T>
T parse_number(std::string_view text, const std::string& file, std::size_t line, int base = 10) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw Error(file, line, "expected a number, found '" + excerpt(text) + "'");
  return value;
}

void fnv(std::uint64_t& h, std::string_view bytes) {
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  h ^= 0xff;  // separator, so ("ab","c") and ("a","bc") differ
  h *= 0x100000001b3ULL;
}

}  // namespace

std::uint64_t ProbeMap::compute_id() const {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  fnv(h, std::to_string(probe_count));
  for (const auto& f : files) fnv(h, f);
  for (const auto& f : functions) fnv(h, f);
  for (const auto& s : sites)
    fnv(h, std::to_string(s.probe) + ' ' + std::to_string(s.file) + ' ' + std::to_string(s.line) + ' ' +
               std::to_string(s.column) + ' ' + std::to_string(s.function) + space_name(s.space));
  return h ? h : 1;
}

void write_probe_map(const ProbeMap& map, const std::filesystem::path& path) {
  std::ostringstream out;
  out << "# dlfl probe map: probe id -> original source line; one `site` per line a probe covers\n";
  out << kMagic << "\t1\n";
  out << "root\t" << map.root << '\n';
  out << "probes\t" << map.probe_count << '\n';
  char id[17];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(map.id));
  out << "id\t" << id << '\n';
  for (std::size_t i = 0; i < map.files.size(); ++i) out << "file\t" << i << '\t' << map.files[i] << '\n';
  for (std::size_t i = 0; i < map.functions.size(); ++i)
    out << "function\t" << i << '\t' << map.functions[i] << '\n';
  for (const auto& s : map.sites)
    out << "site\t" << s.probe << '\t' << s.file << '\t' << s.line << '\t' << s.column << '\t' << s.function
        << '\t' << space_name(s.space) << '\n';

  // Temporary sibling + rename: a reader never sees half a map.
  const std::filesystem::path temp = path.string() + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream file(temp, std::ios::binary | std::ios::trunc);
    file << out.str();
    file.flush();
    if (!file) throw Error(path.string(), 0, "cannot write the probe map");
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw Error(path.string(), 0, "cannot write the probe map: " + ec.message());
  }
}

ProbeMap read_probe_map(const std::filesystem::path& path) {
  const std::string name = path.string();
  const std::string content = read_whole(path, name);
  ProbeMap map;
  bool magic = false, have_count = false;
  std::size_t line = 0;
  for (std::size_t at = 0; at < content.size();) {
    ++line;
    std::size_t eol = content.find('\n', at);
    if (eol == std::string::npos) eol = content.size();
    std::string_view text(content.data() + at, eol - at);
    at = eol + 1;
    // Maps edited or checked out on Windows: CRLF line ends and a byte-order mark.
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (line == 1 && text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    if (text.empty() || text[0] == '#') continue;
    const auto f = split_tabs(text);
    const std::string_view kind = f[0];
    auto need = [&](std::size_t n) {
      if (f.size() != n)
        throw Error(name, line, "'" + excerpt(kind) + "' needs " + std::to_string(n - 1) + " fields");
    };
    if (!magic) {
      if (kind != kMagic) throw Error(name, line, "not a dlfl probe map");
      need(2);
      if (f[1] != "1") throw Error(name, line, "unsupported probe map version " + excerpt(f[1]));
      magic = true;
    } else if (kind == "root") {
      need(2);
      map.root = f[1];
    } else if (kind == "probes") {
      need(2);
      map.probe_count = parse_number<std::uint32_t>(f[1], name, line);
      have_count = true;
    } else if (kind == "id") {
      need(2);
      map.id = parse_number<std::uint64_t>(f[1], name, line, 16);
    } else if (kind == "file" || kind == "function") {
      need(3);
      auto& list = kind == "file" ? map.files : map.functions;
      if (parse_number<std::size_t>(f[1], name, line) != list.size())
        throw Error(name, line, std::string(kind) + " indices must count up from 0");
      list.emplace_back(f[2]);
    } else if (kind == "site") {
      need(7);
      ProbeSite s;
      s.probe = parse_number<std::uint32_t>(f[1], name, line);
      s.file = parse_number<std::uint32_t>(f[2], name, line);
      s.line = parse_number<std::uint32_t>(f[3], name, line);
      s.column = parse_number<std::uint32_t>(f[4], name, line);
      s.function = parse_number<std::uint32_t>(f[5], name, line);
      if (f[6] == "h") s.space = ProbeSpace::host;
      else if (f[6] == "d") s.space = ProbeSpace::device;
      else if (f[6] == "hd") s.space = ProbeSpace::host_device;
      else throw Error(name, line, "probe space must be h, d or hd, found '" + excerpt(f[6]) + "'");
      if (!have_count || s.probe >= map.probe_count)
        throw Error(name, line, "probe " + std::to_string(s.probe) + " is outside the declared count");
      if (s.file >= map.files.size() || s.function >= map.functions.size())
        throw Error(name, line, "site refers to an undeclared file or function");
      map.sites.push_back(s);
    } else {
      throw Error(name, line, "unknown record '" + excerpt(kind) + "'");
    }
  }
  if (!magic) throw Error(name, 0, "empty file, not a dlfl probe map");
  return map;
}

}  // namespace dlfl::instrument
