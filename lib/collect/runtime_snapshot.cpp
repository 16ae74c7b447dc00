// read_runtime_snapshot(): a dlfl_rt snapshot file (dlfl_rt_file.h) mapped and read back.
#include "dlfl/collect/runtime_snapshot.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "dlfl/error.h"
#include "dlfl_rt/dlfl_rt_file.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

// A read-only mapping of a whole file.
class MappedFile {
 public:
  explicit MappedFile(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(path.string(), 0, "cannot open the runtime snapshot: " + std::string(std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd);
      throw Error(path.string(), 0, "is a directory, not a runtime snapshot file");
    }
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      size_ = static_cast<std::size_t>(st.st_size);
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      data_ = p == MAP_FAILED ? nullptr : static_cast<const unsigned char*>(p);
    }
    ::close(fd);
    if (!data_) throw Error(path.string(), 0, "cannot map the runtime snapshot (empty file?)");
  }
  ~MappedFile() { ::munmap(const_cast<unsigned char*>(data_), size_); }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const unsigned char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

std::vector<std::uint32_t> reached(const unsigned char* map, std::uint64_t count) {
  std::vector<std::uint32_t> ids;
  for (std::uint64_t i = 0; i < count; ++i)
    if (map[i]) ids.push_back(static_cast<std::uint32_t>(i));
  return ids;
}

}  // namespace

RuntimeSnapshot read_runtime_snapshot(const fs::path& path) {
  const MappedFile file(path);
  const std::string name = path.string();
  if (file.size() < DLFL_RT_HEADER_SIZE) throw Error(name, 0, "truncated runtime snapshot (no header)");
  dlfl_rt_file_header h;
  std::memcpy(&h, file.data(), sizeof h);
  if (std::memcmp(h.magic, DLFL_RT_MAGIC, 8) != 0) throw Error(name, 0, "not a dlfl runtime snapshot");
  if (h.version != DLFL_RT_VERSION) throw Error(name, 0, "unsupported snapshot version " + std::to_string(h.version));
  // Every size is bounded by the file's before it takes part in a sum or product, so a
  // corrupt header cannot wrap around and pass (which would read past the mapping).
  const std::uint64_t size = file.size();
  if (h.header_size < sizeof h || h.header_size > size || h.probe_count > size || h.name_capacity > size ||
      h.slot_stride > size || h.slot_stride < DLFL_RT_SLOT_HEADER_SIZE + h.name_capacity + h.probe_count ||
      h.slot_count == 0 || h.slot_count > (size - h.header_size) / h.slot_stride)
    throw Error(name, 0, "inconsistent runtime snapshot header");
  RuntimeSnapshot snap;
  snap.probe_count = h.probe_count;
  snap.map_id = h.map_id;
  snap.pid = h.pid;
  for (std::uint32_t i = 0; i < h.slot_count; ++i) {
    const unsigned char* slot = file.data() + h.header_size + static_cast<std::uint64_t>(i) * h.slot_stride;
    dlfl_rt_slot_header sh;
    std::memcpy(&sh, slot, sizeof sh);
    const unsigned char* map = slot + DLFL_RT_SLOT_HEADER_SIZE + h.name_capacity;
    if (i == 0) {
      snap.outside = reached(map, h.probe_count);
      continue;
    }
    if (sh.state != DLFL_RT_SLOT_RUNNING && sh.state != DLFL_RT_SLOT_ENDED) continue;
    RuntimeSlot s;
    const char* text = reinterpret_cast<const char*>(slot + DLFL_RT_SLOT_HEADER_SIZE);
    s.name.assign(text, ::strnlen(text, h.name_capacity));
    s.state = sh.state;
    s.outcome = sh.outcome;
    s.begin_ns = sh.begin_ns;
    s.end_ns = sh.end_ns;
    s.probes = reached(map, h.probe_count);
    snap.tests.push_back(std::move(s));
  }
  return snap;
}

}  // namespace dlfl::collect
