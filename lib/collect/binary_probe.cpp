// Probing a binary's coverage instrumentation from its ELF sections, symbols and bytes.
#include "dlfl/collect/binary_probe.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <string_view>

#include "dlfl/error.h"
#include "dlfl/files/text_file.h"

namespace dlfl::collect {
namespace {

// A read-only mapping of a whole file.
class MappedFile {
 public:
  explicit MappedFile(const std::filesystem::path& path) {
    const io::InputFile file(path);  // a FIFO or device is refused before anything reads it
    size_ = file.size();
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.fd(), 0);
      if (p == MAP_FAILED) throw Error(path.string(), 0, std::string("cannot map: ") + std::strerror(errno));
      data_ = static_cast<const char*>(p);
    }
  }  // the mapping keeps the file open
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  std::string_view bytes() const noexcept { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class T>
bool read_at(std::string_view file, std::uint64_t offset, T& out) {
  if (offset > file.size() || file.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, file.data() + offset, sizeof(T));
  return true;
}

// A NUL-terminated string at `offset` inside [begin, end) of the file.
std::string_view c_string(std::string_view file, std::uint64_t offset, std::uint64_t end) {
  end = std::min<std::uint64_t>(end, file.size());
  if (offset >= end) return {};
  const char* p = file.data() + offset;
  const auto* nul = static_cast<const char*>(std::memchr(p, '\0', end - offset));
  return nul ? std::string_view(p, static_cast<std::size_t>(nul - p)) : std::string_view{};
}

int major_after(std::string_view text, std::string_view marker) {
  const auto at = text.find(marker);
  if (at == std::string_view::npos) return 0;
  auto rest = text.substr(at + marker.size());
  int major = 0;
  std::from_chars(rest.data(), rest.data() + rest.size(), major);
  return major;
}

// The .comment section holds NUL-separated producer strings, one per toolchain part.
void read_comment(std::string_view comment, BinaryInfo& info) {
  std::size_t pos = 0;
  while (pos < comment.size()) {
    auto end = comment.find('\0', pos);
    if (end == std::string_view::npos) end = comment.size();
    const auto producer = comment.substr(pos, end - pos);
    pos = end + 1;
    if (producer.find("clang version ") != std::string_view::npos)
      info.clang_major = std::max(info.clang_major, major_after(producer, "clang version "));
    else if (producer.starts_with("GCC: ")) {
      // "GCC: (Debian 12.2.0-14+deb12u1) 12.2.0": the version is the last word.
      const auto space = producer.rfind(' ');
      int major = 0;
      if (space != std::string_view::npos)
        std::from_chars(producer.data() + space + 1, producer.data() + producer.size(), major);
      info.gcc_major = std::max(info.gcc_major, major);
    }
  }
}

// Absolute paths ending in ".gcda" among the file's strings: libgcov's gcov_info records.
std::vector<std::string> find_gcda_paths(std::string_view file) {
  std::set<std::string> found;
  constexpr std::string_view suffix(".gcda\0", 6);
  std::size_t pos = 0;
  while ((pos = file.find(suffix, pos)) != std::string_view::npos) {
    std::size_t begin = pos;
    while (begin > 0 && file[begin - 1] != '\0' && pos - begin < 4096) --begin;
    const auto path = file.substr(begin, pos + 5 - begin);
    if (path.starts_with('/')) found.emplace(path);
    pos += suffix.size();
  }
  return {found.begin(), found.end()};
}

}  // namespace

BinaryInfo probe_binary(const std::filesystem::path& path) {
  const MappedFile mapped(path);
  const std::string_view file = mapped.bytes();
  BinaryInfo info;
  Elf64_Ehdr eh{};
  if (!read_at(file, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return info;
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
    throw Error(path.string(), 0, "only 64-bit little-endian ELF binaries are supported");
  info.elf = true;
  info.linked = eh.e_type == ET_EXEC || eh.e_type == ET_DYN;
  for (std::size_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    if (!read_at(file, eh.e_phoff + i * sizeof(Elf64_Phdr), ph)) break;
    if (ph.p_type == PT_INTERP) info.dynamic_executable = true;
  }

  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (std::size_t i = 0; i < sections.size(); ++i)
    if (!read_at(file, eh.e_shoff + i * sizeof(Elf64_Shdr), sections[i]))
      throw Error(path.string(), 0, "truncated ELF section table");
  const Elf64_Shdr* names = eh.e_shstrndx < sections.size() ? &sections[eh.e_shstrndx] : nullptr;
  bool covmap = false, counters = false;
  const Elf64_Shdr* symtab = nullptr;
  for (const auto& s : sections) {
    const auto name = names ? c_string(file, names->sh_offset + s.sh_name, names->sh_offset + names->sh_size)
                            : std::string_view{};
    if (name == "__llvm_covmap") covmap = true;
    if (name == "__llvm_prf_cnts") counters = true;
    if (name == ".comment" && s.sh_type != SHT_NOBITS && s.sh_offset <= file.size())
      read_comment(file.substr(s.sh_offset, std::min<std::uint64_t>(s.sh_size, file.size() - s.sh_offset)), info);
    if (s.sh_type == SHT_SYMTAB) symtab = &s;
  }
  info.llvm_coverage = covmap && counters;

  if (info.llvm_coverage && symtab && symtab->sh_link < sections.size()) {
    const Elf64_Shdr& strings = sections[symtab->sh_link];
    std::uint64_t bias = 0, bias_default = 0;
    const std::uint64_t count = symtab->sh_entsize ? symtab->sh_size / symtab->sh_entsize : 0;
    for (std::uint64_t i = 0; i < count; ++i) {
      Elf64_Sym sym{};
      if (!read_at(file, symtab->sh_offset + i * symtab->sh_entsize, sym)) break;
      const auto name = c_string(file, strings.sh_offset + sym.st_name, strings.sh_offset + strings.sh_size);
      if (name == "__llvm_profile_counter_bias") bias = sym.st_value;
      if (name == "__llvm_profile_counter_bias_default") bias_default = sym.st_value;
    }
    info.llvm_continuous_capable = bias != 0 && bias != bias_default;
  }
  if (!info.llvm_coverage) info.gcda_paths = find_gcda_paths(file);
  return info;
}

std::vector<std::filesystem::path> find_llvm_coverage_binaries(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::vector<fs::path> found;
  std::error_code ec;
  auto it = fs::recursive_directory_iterator(dir, ec);
  if (ec) throw Error(dir.string(), 0, "cannot list the directory: " + ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) throw Error(dir.string(), 0, "cannot list the directory: " + ec.message());
    const fs::file_status status = it->symlink_status(ec);
    // CMake's own probes of the compiler (CMakeFiles/VERSION/CompilerIdCXX/a.out) are
    // built with the project's flags too; the targets' files there are object files.
    if (!ec && fs::is_directory(status) && it->path().filename() == "CMakeFiles") {
      it.disable_recursion_pending();
      continue;
    }
    if (ec || !fs::is_regular_file(status) || (status.permissions() & fs::perms::owner_exec) == fs::perms::none)
      continue;
    // Scripts, and ELF files probe_binary does not read (32-bit, big-endian), are not what
    // this machine's clang coverage builds link.
    char ident[EI_DATA + 1] = {};
    std::ifstream in(it->path(), std::ios::binary);
    if (!in.read(ident, sizeof ident) || std::memcmp(ident, ELFMAG, SELFMAG) != 0 || ident[EI_CLASS] != ELFCLASS64 ||
        ident[EI_DATA] != ELFDATA2LSB)
      continue;
    const BinaryInfo info = probe_binary(it->path());
    if (info.linked && info.llvm_coverage) found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

int gcov_stamp_major(std::string_view stamp) {
  if (stamp.size() != 4) return 0;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (stamp[0] >= 'A' && stamp[0] <= 'Z' && digit(stamp[1])) return (stamp[0] - 'A') * 10 + (stamp[1] - '0');
  if (digit(stamp[0])) return stamp[0] - '0';
  return 0;
}

GcovStamp read_gcov_stamp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char header[8];
  if (!in.read(header, sizeof header)) throw Error(path.string(), 0, "cannot read the gcov version stamp");
  // Magic "gcno"/"gcda" as a little-endian word ("oncg"/"adcg" on disk), then the version
  // word, so the stamp's characters are stored back to front too.
  const std::string_view magic(header, 4);
  if (magic != "oncg" && magic != "adcg" && magic != "gcno" && magic != "gcda")
    throw Error(path.string(), 0, "not a gcov notes or data file");
  GcovStamp s;
  s.stamp = magic[0] == 'g' ? std::string(header + 4, 4) : std::string{header[7], header[6], header[5], header[4]};
  s.major = gcov_stamp_major(s.stamp);
  return s;
}

}  // namespace dlfl::collect
