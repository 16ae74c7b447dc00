// KillJournal: the append-only JSON-lines results file of a mutant run.
#include "kill_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "dlfl/error.h"
#include "dlfl/files/text_file.h"

namespace dlfl::collect::detail {
namespace {

using json = nlohmann::json;
using Kind = TestOutcome::Kind;
constexpr const char* kJournalFormat = "dlfl-kill-journal";

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::passed: return "passed";
    case Kind::failed: return "failed";
    case Kind::crashed: return "crashed";
    case Kind::timed_out: return "timed_out";
    case Kind::skipped: return "skipped";
    case Kind::not_run: return "not_run";
  }
  return "passed";
}

std::optional<Kind> parse_kind(const std::string& name) {
  for (Kind k : {Kind::passed, Kind::failed, Kind::crashed, Kind::timed_out, Kind::skipped, Kind::not_run})
    if (name == kind_name(k)) return k;
  return std::nullopt;
}

std::string hex(std::uint64_t v) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(v));
  return buffer;
}

void write_all(int fd, const std::string& text, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(path.string(), 0, std::string("cannot write: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::uint64_t message_hash(const std::string& message) noexcept {
  if (message.empty()) return 0;
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : message) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h == 0 ? 1 : h;
}

KillJournal::KillJournal(std::filesystem::path path, std::uint64_t schemata) : path_(std::move(path)) {
  const std::string source = path_.string();
  const std::string header = json{{"journal", kJournalFormat}, {"version", 1}, {"schemata", hex(schemata)}}.dump();
  std::error_code ec;
  std::string text;
  if (std::filesystem::exists(path_, ec)) text = io::read_file_bytes(path_);
  // A line cut short by a kill has no newline: it is dropped, and the file cut back.
  const std::size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  const bool cut = complete < text.size();
  text.resize(complete);
  std::size_t line_no = 0, start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    json j;
    try {
      j = json::parse(line);
    } catch (const json::exception&) {
      throw Error(source, line_no, "not a kill journal line");
    }
    if (line_no == 1) {
      if (!j.is_object() || j.value("journal", "") != kJournalFormat) throw Error(source, 1, "not a kill journal");
      if (j.value("schemata", "") != hex(schemata))
        throw Error(source, 1,
                    "holds the results of another mutant schemata; remove it (or choose another output directory)");
      continue;
    }
    try {
      JournalRecord r;
      r.mutant = j.at("m").get<std::uint32_t>();
      r.run = j.at("r").get<std::uint32_t>();
      r.test = j.at("t").get<std::string>();
      const auto kind = parse_kind(j.at("k").get<std::string>());
      if (!kind) throw Error(source, line_no, "unknown outcome '" + j.at("k").get<std::string>() + "'");
      r.kind = *kind;
      r.message_hash = std::stoull(j.at("h").get<std::string>(), nullptr, 16);
      r.wall_ns = j.at("ns").get<std::uint64_t>();
      recorded_.push_back(std::move(r));
    } catch (const json::exception&) {
      throw Error(source, line_no, "not a kill journal record");
    } catch (const std::logic_error&) {
      throw Error(source, line_no, "not a kill journal record");
    }
  }
  fd_ = ::open(source.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd_ < 0) throw Error(source, 0, std::string("cannot open: ") + std::strerror(errno));
  if (cut && ::ftruncate(fd_, static_cast<off_t>(complete)) != 0)
    throw Error(source, 0, std::string("cannot cut off its unfinished last line: ") + std::strerror(errno));
  if (complete == 0) write_all(fd_, header + "\n", path_);
}

KillJournal::~KillJournal() {
  if (fd_ >= 0) ::close(fd_);
}

void KillJournal::append(const JournalRecord& r) {
  const std::string line = json{{"m", r.mutant},      {"r", r.run},
                                {"t", r.test},        {"k", kind_name(r.kind)},
                                {"h", hex(r.message_hash)}, {"ns", r.wall_ns}}
                               .dump(-1, ' ', false, json::error_handler_t::replace) +
                           "\n";
  std::lock_guard lock(mutex_);
  write_all(fd_, line, path_);
}

}  // namespace dlfl::collect::detail
