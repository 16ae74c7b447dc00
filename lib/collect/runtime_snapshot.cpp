// Reading a dlfl_rt snapshot file (dlfl_rt_file.h) with bounded reads: the header, the two
// maps, then one record at a time, each checked against the file's real size.
#include "dlfl/collect/runtime_snapshot.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/files/text_file.h"
#include "dlfl_rt/dlfl_rt.h"
#include "dlfl_rt/dlfl_rt_file.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

class ReadOnlyFile {
 public:
  // io::InputFile refuses a FIFO or device (--snapshot /dev/zero) before anything reads it.
  explicit ReadOnlyFile(const fs::path& path)
      : file_(path), name_(file_.name()), fd_(file_.fd()), size_(file_.size()) {}
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;

  std::uint64_t size() const { return size_; }
  // For a file still being written: reads its size again and forgets the bytes read ahead.
  void refresh() {
    struct stat st {};
    if (::fstat(fd_, &st) == 0) size_ = static_cast<std::uint64_t>(st.st_size);
    window_.clear();
    window_at_ = 0;
  }
  // Exactly `bytes` at `offset`, read now (not from the bytes read ahead).
  void read_direct(void* to, std::uint64_t bytes, std::uint64_t offset) const { read_exactly(to, bytes, offset); }
  const std::string& name() const { return name_; }

  // Exactly `bytes` at `offset`, which the caller checked lie inside size(). Small reads
  // come from a window of up to 1 MiB read ahead: a record is three small reads (header,
  // name, ids), and 10^4 tests made 3 x 10^4 system calls.
  void read(void* to, std::uint64_t bytes, std::uint64_t offset) const {
    constexpr std::uint64_t kWindow = 1 << 20;
    if (bytes >= kWindow / 4) return read_exactly(to, bytes, offset);
    if (offset < window_at_ || offset - window_at_ + bytes > window_.size()) {
      window_.resize(std::min(kWindow, size_ - offset));
      read_exactly(window_.data(), window_.size(), offset);
      window_at_ = offset;
    }
    if (bytes) std::memcpy(to, window_.data() + (offset - window_at_), bytes);
  }

 private:
  void read_exactly(void* to, std::uint64_t bytes, std::uint64_t offset) const {
    auto* p = static_cast<char*>(to);
    while (bytes) {
      const ssize_t n = ::pread(fd_, p, bytes, static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw Error(name_, 0, "cannot read the runtime snapshot (truncated while reading?)");
      p += n;
      bytes -= static_cast<std::uint64_t>(n);
      offset += static_cast<std::uint64_t>(n);
    }
  }

  io::InputFile file_;
  std::string name_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  mutable std::vector<char> window_;  // the file's bytes at window_at_ ..
  mutable std::uint64_t window_at_ = 0;
};

std::vector<std::uint32_t> reached(const std::vector<unsigned char>& map) {
  std::vector<std::uint32_t> ids;
  for (std::size_t i = 0; i < map.size(); ++i)
    if (map[i]) ids.push_back(static_cast<std::uint32_t>(i));
  return ids;
}

std::uint64_t pad8(std::uint64_t n) { return (n + 7) / 8 * 8; }

// [offset, offset + bytes) inside [0, limit), without wrapping around.
bool inside(std::uint64_t offset, std::uint64_t bytes, std::uint64_t limit) {
  return offset <= limit && bytes <= limit - offset;
}

void check_header(const dlfl_rt_file_header& h, std::uint64_t size, const std::string& name) {
  if (std::memcmp(h.magic, "DLFLRT01", 8) == 0)
    throw Error(name, 0,
                "was written by an older dlfl runtime (snapshot version 1): rebuild the program against this dlfl's "
                "libdlfl_rt");
  if (std::memcmp(h.magic, DLFL_RT_MAGIC, 8) != 0) throw Error(name, 0, "not a dlfl runtime snapshot");
  if (h.version != DLFL_RT_VERSION)
    throw Error(name, 0, "unsupported runtime snapshot version " + std::to_string(h.version) + " (this dlfl reads " +
                             std::to_string(DLFL_RT_VERSION) + ")");
  const bool ok =
      h.header_size >= sizeof h && h.header_size <= size && h.name_capacity >= 1 &&
      inside(h.live_header_offset, DLFL_RT_SLOT_HEADER_SIZE + std::uint64_t{h.name_capacity}, h.header_size) &&
      h.probe_count <= size && inside(h.outside_offset, h.probe_count, size) &&
      h.outside_offset >= h.header_size && inside(h.live_offset, h.probe_count, size) &&
      h.live_offset >= h.outside_offset + h.probe_count && h.records_offset >= h.live_offset + h.probe_count &&
      h.records_offset <= h.records_end && h.records_end <= size && h.probe_count <= UINT32_MAX;
  if (!ok) throw Error(name, 0, "inconsistent runtime snapshot header");
}

// "FILE (record at byte N)", for errors only.
std::string record_at(const std::string& name, std::uint64_t at) {
  return name + " (record at byte " + std::to_string(at) + ")";
}

// Decodes one record's payload into ascending probe ids, checking each against the map;
// errors name the record at byte `at` of file `name`.
std::vector<std::uint32_t> decode(const dlfl_rt_record_header& r, const std::vector<unsigned char>& payload,
                                  std::uint64_t probe_count, const std::string& name, std::uint64_t at) {
  std::vector<std::uint32_t> ids;
  if (r.encoding == DLFL_RT_ENCODING_IDS) {
    ids.resize(payload.size() / 4);
    if (!payload.empty()) std::memcpy(ids.data(), payload.data(), ids.size() * 4);
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] >= probe_count || (i && ids[i] <= ids[i - 1]))
        throw Error(record_at(name, at), 0, "corrupt runtime snapshot record (probe ids out of range or order)");
  } else {
    for (std::size_t byte = 0; byte < payload.size(); ++byte)
      for (unsigned bit = 0; bit < 8; ++bit)
        if (payload[byte] >> bit & 1u) {
          const std::uint64_t id = byte * 8 + bit;
          if (id >= probe_count)
            throw Error(record_at(name, at), 0, "corrupt runtime snapshot record (bit past the probe count)");
          ids.push_back(static_cast<std::uint32_t>(id));
        }
  }
  if (ids.size() != r.hit_count)
    throw Error(record_at(name, at), 0, "corrupt runtime snapshot record (hit count differs)");
  return ids;
}

}  // namespace

struct RuntimeSnapshotTail::State {
  fs::path path;
  std::optional<ReadOnlyFile> file;
  dlfl_rt_file_header h{};
  RuntimeSnapshot snap;          // the header part; outside coverage only from finish()
  std::uint64_t first_record = 0;  // records_offset; 0 until the header was read
  std::uint64_t at = 0;            // the next record
  std::uint32_t last_ordinal = 0;
  std::vector<unsigned char> payload;

  // Opens the file and reads its header (again, while the writer appends); throws like
  // read_runtime_snapshot.
  void read_header() {
    if (!file) file.emplace(path);
    const std::string& name = file->name();
    // The header first, then the size: records_end never lies past the size it is checked
    // against, and no byte read ahead before it is used.
    file->refresh();
    if (file->size() < sizeof(dlfl_rt_file_header)) throw Error(name, 0, "truncated runtime snapshot (no header)");
    file->read_direct(&h, sizeof h, 0);
    file->refresh();
    check_header(h, file->size(), name);
    if (first_record == 0) {
      first_record = at = h.records_offset;
      snap.probe_count = h.probe_count;
      snap.map_id = h.map_id;
      snap.pid = h.pid;
      snap.whole_process = (h.flags & DLFL_RT_FLAG_WHOLE_PROCESS) != 0;
      if (h.mpi_rank_plus_one != 0) snap.mpi_rank = h.mpi_rank_plus_one - 1;
    } else if (h.records_offset != first_record || h.probe_count != snap.probe_count || h.records_end < at) {
      throw Error(name, 0, "inconsistent runtime snapshot header (it changed while being read)");
    }
  }

  // The record at `at` (before h.records_end), decoded; `at` moves past it.
  RuntimeSlot next_record() {
    const std::string& name = file->name();
    dlfl_rt_record_header r;
    if (!inside(at, sizeof r, h.records_end)) throw Error(record_at(name, at), 0, "truncated runtime snapshot record");
    file->read(&r, sizeof r, at);
    const std::uint64_t body = at + sizeof r;
    const bool header_ok =
        r.magic == DLFL_RT_RECORD_MAGIC && r.name_length < h.name_capacity &&
        (r.encoding == DLFL_RT_ENCODING_IDS ? r.payload_bytes % 4 == 0 && r.payload_bytes / 4 <= h.probe_count
         : r.encoding == DLFL_RT_ENCODING_BITSET ? r.payload_bytes == (h.probe_count + 7) / 8
                                                 : false) &&
        inside(body, pad8(r.name_length), h.records_end) &&
        inside(body + pad8(r.name_length), pad8(r.payload_bytes), h.records_end) && r.ordinal > last_ordinal;
    if (!header_ok) throw Error(record_at(name, at), 0, "corrupt runtime snapshot record");
    RuntimeSlot s;
    s.name.resize(r.name_length);
    file->read(s.name.data(), r.name_length, body);
    payload.resize(r.payload_bytes);
    file->read(payload.data(), payload.size(), body + pad8(r.name_length));
    s.probes = decode(r, payload, h.probe_count, name, at);
    s.state = DLFL_RT_SLOT_ENDED;
    s.outcome = r.outcome;
    s.begin_ns = r.begin_ns;
    s.end_ns = r.end_ns;
    last_ordinal = r.ordinal;
    at = body + pad8(r.name_length) + pad8(r.payload_bytes);
    return s;
  }
};

RuntimeSnapshotTail::RuntimeSnapshotTail(fs::path path) : state_(std::make_unique<State>()) {
  state_->path = std::move(path);
}
RuntimeSnapshotTail::~RuntimeSnapshotTail() = default;

std::size_t RuntimeSnapshotTail::poll(const OnRuntimeTest& on_test, const std::function<bool()>& may_hand) {
  State& st = *state_;
  std::size_t handed = 0;
  try {
    st.read_header();
  } catch (const Error&) {
    return 0;  // not there or not written yet; finish() says what is wrong, if anything
  }
  if (st.at < st.h.records_end && may_hand && !may_hand()) return 0;
  while (st.at < st.h.records_end) {
    const std::uint64_t at = st.at;
    const std::uint32_t last = st.last_ordinal;
    RuntimeSlot s;
    try {
      s = st.next_record();
    } catch (const Error&) {
      st.at = at;  // left to finish(), which reports it
      st.last_ordinal = last;
      break;
    }
    on_test(st.snap, std::move(s));
    ++handed;
  }
  return handed;
}

RuntimeSnapshot RuntimeSnapshotTail::finish(const OnRuntimeTest& on_test) {
  State& st = *state_;
  st.read_header();
  const dlfl_rt_file_header& h = st.h;
  std::vector<unsigned char> bytes(h.probe_count);
  if (!st.snap.whole_process) {
    st.file->read(bytes.data(), bytes.size(), h.outside_offset);
    st.snap.outside = reached(bytes);
  }
  while (st.at < h.records_end) on_test(st.snap, st.next_record());

  // The running test, unless its record was saved just before the process died.
  dlfl_rt_slot_header live;
  st.file->read(&live, sizeof live, h.live_header_offset);
  if (live.state == DLFL_RT_SLOT_RUNNING && live.ordinal > st.last_ordinal) {
    RuntimeSlot s;
    std::vector<char> text(h.name_capacity);
    st.file->read(text.data(), text.size(), h.live_header_offset + DLFL_RT_SLOT_HEADER_SIZE);
    s.name.assign(text.data(), ::strnlen(text.data(), text.size()));
    st.file->read(bytes.data(), bytes.size(), h.live_offset);
    s.probes = reached(bytes);
    s.state = DLFL_RT_SLOT_RUNNING;
    s.begin_ns = live.begin_ns;
    on_test(st.snap, std::move(s));
  }
  return std::move(st.snap);
}

RuntimeSnapshot read_runtime_snapshot(const fs::path& path, const OnRuntimeTest& on_test) {
  return RuntimeSnapshotTail(path).finish(on_test);
}

RuntimeSnapshot read_runtime_snapshot(const fs::path& path) {
  std::vector<RuntimeSlot> tests;
  RuntimeSnapshot snap =
      read_runtime_snapshot(path, [&](const RuntimeSnapshot&, RuntimeSlot&& s) { tests.push_back(std::move(s)); });
  snap.tests = std::move(tests);
  return snap;
}

std::optional<RunningTest> running_test(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  dlfl_rt_file_header h{};
  dlfl_rt_slot_header s{};
  std::optional<RunningTest> result;
  if (::pread(fd, &h, sizeof h, 0) == static_cast<ssize_t>(sizeof h) &&
      std::memcmp(h.magic, DLFL_RT_MAGIC, 8) == 0 && h.live_header_offset <= DLFL_RT_HEADER_SIZE &&
      ::pread(fd, &s, sizeof s, static_cast<off_t>(h.live_header_offset)) == static_cast<ssize_t>(sizeof s) &&
      s.state == DLFL_RT_SLOT_RUNNING)
    result = RunningTest{s.ordinal, s.begin_ns};
  ::close(fd);
  return result;
}

}  // namespace dlfl::collect
