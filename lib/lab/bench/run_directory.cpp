// The shared parts of resumable runs (include/dlfl/lab/bench/run_directory.h).
#include "dlfl/lab/bench/run_directory.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "dlfl/lab/bench/bench_runner.h"
#include "dlfl/lab/bench/bug_table.h"
#include "dlfl/lab/bench/results_store.h"
#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

template <class Emit>
void write_atomically(const fs::path& path, Emit emit) {
  io::AtomicFile out(path);
  emit(out.stream());
  out.commit();
}

}  // namespace

void check_run_configuration(const fs::path& file, const std::string& fingerprint, const std::string& configuration) {
  const nlohmann::json wanted = nlohmann::json::parse(fingerprint);
  if (!fs::exists(file)) {
    write_text(file, wanted.dump(2) + "\n");
    return;
  }
  nlohmann::json stored;
  const std::string text = io::read_text_file(file, kMaxBenchConfigBytes, "run configuration");
  io::check_json_depth(text, file.string());
  try {
    stored = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw Error(file.string(), 0, std::string("not valid JSON: ") + e.what());
  }
  if (stored != wanted)
    throw Error(file.string(), 0,
                "the output directory holds results of another " + configuration +
                    "; choose another output directory or remove this one");
}

void store_finished(ResultsStore& store, BenchProgress* progress, const FaultRecord& record) {
  store.append(record);
  if (progress) progress->fault_done(record.kept, record.key() + (record.kept ? ": kept" : ": " + record.reason));
}

void write_run_outputs(const fs::path& out_dir, std::vector<FaultRecord> records, const SummaryOptions& summary) {
  std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.key() < b.key(); });
  write_atomically(out_dir / std::string(kBugTableFileName),
                   [&](std::ostream& out) { write_bug_table(out, records, summary.top_n); });
  write_atomically(out_dir / std::string(kDiscardedFileName),
                   [&](std::ostream& out) { write_discarded_table(out, records); });
  write_atomically(out_dir / std::string(kSummaryFileName),
                   [&](std::ostream& out) { write_summary(out, records, summary); });
}

void run_workers(unsigned workers, std::size_t count, const std::function<void(unsigned, std::size_t)>& work,
                 const std::atomic<bool>* interrupt) {
  auto interrupted = [&] { return interrupt && interrupt->load(); };
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < std::max(1u, workers); ++k) {
    threads.emplace_back([&, k] {
      while (!stop && !interrupted()) {
        const std::size_t i = next++;
        if (i >= count) return;
        try {
          work(k, i);
        } catch (...) {
          if (interrupted()) return;
          const std::lock_guard lock(error_mutex);
          if (!error) error = std::current_exception();
          stop = true;
          return;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

std::exception_ptr run_reported_workers(unsigned workers, std::size_t count, BenchProgress* progress,
                                        const std::function<void(unsigned, std::size_t)>& work,
                                        const std::atomic<bool>* interrupt) {
  std::exception_ptr error;
  if (progress) progress->start(count);
  try {
    run_workers(workers, count, work, interrupt);
  } catch (...) {
    error = std::current_exception();
  }
  if (progress) progress->finish();
  return error;
}

}  // namespace dlfl::bench
