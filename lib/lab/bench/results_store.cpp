// The resumable results store (include/dlfl/lab/bench/results_store.h).
#include "dlfl/lab/bench/results_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "dlfl/error.h"
#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"

namespace dlfl::bench {
namespace {

using nlohmann::json;

std::string errno_text() { return std::strerror(errno); }

}  // namespace

std::string record_to_json(const FaultRecord& r) {
  json j{{"subject", r.subject},   {"fault", r.fault},       {"kind", r.kind},         {"group", r.group},
         {"bug_type", r.bug_type}, {"operator", r.op},       {"file", r.file},         {"line", r.line},
         {"end_line", r.end_line}, {"function", r.function}, {"faulty_lines", r.faulty_lines},
         {"kept", r.kept},         {"reason", r.reason},     {"tests", r.tests},       {"failing", r.failing},
         {"elements", r.elements}, {"seconds", r.seconds}};
  json results = json::array();
  for (const auto& f : r.results)
    results.push_back({{"formula", f.formula},
                       {"found", f.found},
                       {"first_rank", f.first_rank},
                       {"first_rank_best", f.first_rank_best},
                       {"first_rank_worst", f.first_rank_worst},
                       {"exam", f.exam},
                       {"rr", f.rr},
                       {"ap", f.ap},
                       {"top", f.top}});
  j["results"] = std::move(results);
  // Written only when set, so the records of `dlfl bench` keep their shape.
  if (!r.faulty.empty()) j["faulty"] = r.faulty;
  if (!r.failing_tests.empty()) j["failing_tests"] = r.failing_tests;
  if (!r.fix_tests.empty()) j["fix_tests"] = r.fix_tests;
  if (!r.clone.empty()) j["clone"] = r.clone;
  if (!r.downloads.empty()) j["downloads"] = r.downloads;
  if (!r.recipe.empty()) j["recipe"] = r.recipe;
  if (!r.host.empty()) j["host"] = r.host;
  if (!r.tail.empty()) j["tail"] = r.tail;
  if (r.attempt > 1) j["attempt"] = r.attempt;
  if (!r.detail.empty()) j["detail"] = r.detail;
  if (r.mbfl) {
    const MutationCost& m = *r.mbfl;
    j["mbfl"] = {{"failure", m.failure},
                 {"generated", m.generated},
                 {"compiled", m.compiled},
                 {"killed", m.killed},
                 {"runs", m.runs},
                 {"build_seconds", m.build_seconds},
                 {"run_seconds", m.run_seconds},
                 {"seconds", m.seconds},
                 {"plain_build_seconds", m.plain_build_seconds},
                 {"on_faulty_lines", m.on_faulty_lines}};
    if (m.plain_build_uncached) j["mbfl"]["plain_build_uncached"] = true;
    if (m.faulty_lines_examined) j["mbfl"]["faulty_lines_examined"] = *m.faulty_lines_examined;
    if (m.budget) j["mbfl"]["budget"] = m.budget;
    if (m.per_line) j["mbfl"]["per_line"] = m.per_line;
    if (!m.operators.empty()) j["mbfl"]["operators"] = m.operators;
    if (m.pytest_batch) j["mbfl"]["pytest_batch"] = m.pytest_batch;
  }
  return j.dump(-1, ' ', false, json::error_handler_t::replace);  // paths may not be UTF-8
}

FaultRecord parse_record(std::string_view line, const std::string& source, std::size_t line_number) {
  io::check_json_depth(line, source, line_number);
  try {
    const json j = json::parse(line);
    FaultRecord r;
    j.at("subject").get_to(r.subject);
    j.at("fault").get_to(r.fault);
    j.at("kind").get_to(r.kind);
    j.at("group").get_to(r.group);
    j.at("bug_type").get_to(r.bug_type);
    j.at("operator").get_to(r.op);
    j.at("file").get_to(r.file);
    j.at("line").get_to(r.line);
    j.at("end_line").get_to(r.end_line);
    j.at("function").get_to(r.function);
    j.at("faulty_lines").get_to(r.faulty_lines);
    j.at("kept").get_to(r.kept);
    j.at("reason").get_to(r.reason);
    j.at("tests").get_to(r.tests);
    j.at("failing").get_to(r.failing);
    j.at("elements").get_to(r.elements);
    j.at("seconds").get_to(r.seconds);
    for (const auto& f : j.at("results")) {
      FormulaResult fr;
      f.at("formula").get_to(fr.formula);
      f.at("found").get_to(fr.found);
      f.at("first_rank").get_to(fr.first_rank);
      f.at("first_rank_best").get_to(fr.first_rank_best);
      f.at("first_rank_worst").get_to(fr.first_rank_worst);
      f.at("exam").get_to(fr.exam);
      f.at("rr").get_to(fr.rr);
      f.at("ap").get_to(fr.ap);
      f.at("top").get_to(fr.top);
      r.results.push_back(std::move(fr));
    }
    if (const auto it = j.find("faulty"); it != j.end()) it->get_to(r.faulty);
    if (const auto it = j.find("failing_tests"); it != j.end()) it->get_to(r.failing_tests);
    if (const auto it = j.find("fix_tests"); it != j.end()) it->get_to(r.fix_tests);
    if (const auto it = j.find("clone"); it != j.end()) it->get_to(r.clone);
    if (const auto it = j.find("downloads"); it != j.end()) it->get_to(r.downloads);
    if (const auto it = j.find("recipe"); it != j.end()) it->get_to(r.recipe);
    if (const auto it = j.find("host"); it != j.end()) it->get_to(r.host);
    if (const auto it = j.find("tail"); it != j.end()) it->get_to(r.tail);
    if (const auto it = j.find("attempt"); it != j.end()) {
      if (!it->is_number_unsigned() || it->get<std::uint64_t>() == 0 || it->get<std::uint64_t>() > 1000000)
        throw Error(source, line_number, "\"attempt\" must be a whole number from 1");
      r.attempt = static_cast<unsigned>(it->get<std::uint64_t>());
    }
    if (const auto it = j.find("detail"); it != j.end()) it->get_to(r.detail);
    if (const auto it = j.find("mbfl"); it != j.end()) {
      MutationCost m;
      it->at("failure").get_to(m.failure);
      it->at("generated").get_to(m.generated);
      it->at("compiled").get_to(m.compiled);
      it->at("killed").get_to(m.killed);
      it->at("runs").get_to(m.runs);
      it->at("build_seconds").get_to(m.build_seconds);
      it->at("run_seconds").get_to(m.run_seconds);
      it->at("seconds").get_to(m.seconds);
      it->at("plain_build_seconds").get_to(m.plain_build_seconds);
      m.plain_build_uncached = it->value("plain_build_uncached", false);
      m.on_faulty_lines = it->value("on_faulty_lines", std::size_t{0});  // records of older versions lack it
      if (const auto examined = it->find("faulty_lines_examined"); examined != it->end())
        m.faulty_lines_examined = examined->get<std::size_t>();
      m.budget = it->value("budget", std::size_t{0});
      m.per_line = it->value("per_line", std::size_t{0});
      if (const auto operators = it->find("operators"); operators != it->end()) operators->get_to(m.operators);
      m.pytest_batch = it->value("pytest_batch", std::size_t{0});
      r.mbfl = std::move(m);
    }
    if (r.subject.empty() || r.fault.empty()) throw Error(source, line_number, "a record without subject or fault");
    return r;
  } catch (const json::exception& e) {
    throw Error(source, line_number, std::string("malformed result record: ") + e.what());
  }
}

namespace {

// The store's bytes unchanged (the torn last line is cut at its byte offset), bounded.
std::string read_store(const std::filesystem::path& path) {
  return io::read_file_bytes(path, kMaxResultsStoreBytes, "results store", kMaxResultRecordBytes);
}

// The length of `text` up to and including its last newline: the complete records.
std::size_t complete_length(const std::string& text) {
  const std::size_t nl = text.rfind('\n');
  return nl == std::string::npos ? 0 : nl + 1;
}

std::vector<FaultRecord> parse_records(std::string_view text, const std::string& name) {
  std::vector<FaultRecord> records;
  std::size_t line_number = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t nl = text.find('\n', pos);
    ++line_number;
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    records.push_back(parse_record(line, name, line_number));
  }
  return records;
}

}  // namespace

std::vector<FaultRecord> read_records(const std::filesystem::path& path) {
  const std::string text = read_store(path);
  std::vector<FaultRecord> latest;
  std::map<std::string, std::size_t> index;
  for (auto& r : parse_records(std::string_view(text).substr(0, complete_length(text)), path.string())) {
    const auto [it, added] = index.emplace(r.key(), latest.size());
    if (added) latest.push_back(std::move(r));
    else if (r.attempt > latest[it->second].attempt) latest[it->second] = std::move(r);
  }
  return latest;
}

ResultsStore::ResultsStore(std::filesystem::path path) : path_(std::move(path)) {
  const std::string name = path_.string();
  // Opened and locked before reading, so a second bench on the same output directory
  // fails here instead of interleaving its records with ours.
  fd_ = ::open(name.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) throw Error(name, 0, "cannot open the results store: " + errno_text());
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const std::string why = errno == EWOULDBLOCK ? "another dlfl bench is using this output directory"
                                                 : "cannot lock the results store: " + errno_text();
    ::close(fd_);
    throw Error(name, 0, why);
  }
  std::string text;
  try {
    text = read_store(path_);  // exists: opened with O_CREAT above
  } catch (...) {
    ::close(fd_);
    throw;
  }
  // A torn last line (killed mid-write) is dropped: that fault simply runs again.
  const std::size_t complete = complete_length(text);
  try {
    for (auto& record : parse_records(std::string_view(text).substr(0, complete), name)) keep(std::move(record));
  } catch (...) {
    ::close(fd_);
    throw;
  }
  if (complete != text.size() && ::ftruncate(fd_, static_cast<off_t>(complete)) != 0) {
    ::close(fd_);
    throw Error(name, 0, "cannot cut off the torn last record: " + errno_text());
  }
  if (::lseek(fd_, 0, SEEK_END) < 0) {
    ::close(fd_);
    throw Error(name, 0, "cannot seek in the results store: " + errno_text());
  }
}

ResultsStore::~ResultsStore() {
  if (fd_ >= 0) ::close(fd_);
}

bool ResultsStore::keep(FaultRecord record) {
  const auto [it, added] = index_.emplace(record.key(), records_.size());
  if (added) {
    records_.push_back(std::move(record));
    return true;
  }
  if (record.attempt <= records_[it->second].attempt) return false;
  records_[it->second] = std::move(record);  // a retry supersedes the earlier attempt
  return true;
}

bool ResultsStore::contains(const std::string& key) const {
  const std::lock_guard lock(mutex_);
  return index_.contains(key);
}

const FaultRecord* ResultsStore::find(const std::string& key) const {
  const std::lock_guard lock(mutex_);
  const auto it = index_.find(key);
  return it == index_.end() ? nullptr : &records_[it->second];
}

void ResultsStore::append(const FaultRecord& record) {
  const std::lock_guard lock(mutex_);
  if (failed_) throw Error(path_.string(), 0, "an earlier append failed: the store takes no more results");
  if (const auto it = index_.find(record.key()); it != index_.end() && record.attempt <= records_[it->second].attempt)
    return;
  const std::string line = record_to_json(record) + "\n";
  const off_t start = ::lseek(fd_, 0, SEEK_CUR);
  // A failed write may leave part of the line behind: cut it off, so the next run reads
  // complete records only (its torn-line rule covers only the file's last line).
  const auto fail = [&](const std::string& what) {
    const std::string why = what + errno_text();
    failed_ = true;
    if (start >= 0 && ::ftruncate(fd_, start) == 0) (void)::lseek(fd_, start, SEEK_SET);
    throw Error(path_.string(), 0, why);
  };
  if (start < 0) fail("cannot seek in the results store: ");
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot append a result: ");
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd_) != 0) fail("cannot sync the results store: ");
  keep(record);
}

}  // namespace dlfl::bench
