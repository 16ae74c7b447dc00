// collect_with_runtime(): per-test coverage from ONE run of a GoogleTest binary built from
// a `dlfl instrument` tree and linked with the runtime's listener (libdlfl_rt_gtest).
//
// The binary runs with DLFL_RT_FILE set; the runtime writes each test's probe bytes into a
// memory-mapped snapshot file as they are reached (include/dlfl_rt/dlfl_rt_file.h), so a
// test that crashes, aborts or is killed keeps the coverage it reached. Such a test is
// recorded as failing with that partial coverage, and the binary is started again on the
// tests that did not run yet (a --gtest_filter), so no test ever runs twice. Elements are
// the original source lines of the probe map.
#include <algorithm>
#include <chrono>
#include <string>

#include "collectors.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "dlfl/files/text_file.h"
#include "dlfl_rt/dlfl_rt_messages.h"
#include "runtime_collection.h"

namespace dlfl::collect {

namespace fs = std::filesystem;

MapInPreparation::MapInPreparation(const fs::path& probe_map, bool absolute_paths,
                                   std::optional<PathFilterOptions> paths) {
  // A map that cannot even be opened (or is no regular file) is reported, in the map
  // reader's words, before anything runs; io::InputFile's check cannot block on a FIFO.
  try {
    const io::InputFile check(probe_map);
  } catch (const Error&) {
    (void)instrument::read_probe_map(probe_map);
  }
  future_ = std::async(std::launch::async, [this, probe_map, absolute_paths, paths = std::move(paths)] {
    try {
      return std::make_unique<PreparedMap>(probe_map, absolute_paths, paths);
    } catch (...) {
      failed_ = true;
      throw;
    }
  });
}

PreparedMap& MapInPreparation::ready() {
  if (!prepared_ && !error_) {
    try {
      prepared_ = future_.get();
    } catch (...) {
      error_ = std::current_exception();
    }
  }
  if (error_) std::rethrow_exception(error_);
  return *prepared_;
}

bool MapInPreparation::done() const {
  return !future_.valid() || future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

RuntimeCollection::RuntimeCollection(const CollectRequest& request, const GtestBinary& source)
    : r_(request),
      g_(source),
      repeat_(request.repeat.value_or(1)),
      timeout_(request.timeout.value_or(kDefaultTestTimeout)),
      map_(request.probe_map, request.absolute_paths, runtime_path_filter(request)),
      work_(request.work_dir, "dlfl-runtime", request.keep_work),
      listing_messages_(work_.path() / "listing.messages"),
      // The listing is a start of the test binary of its own (for 10^4 tests, as long as a
      // tenth of their run): without a shard to select, the first run starts at the same
      // time, with GoogleTest's own filter, and the listing's tests are matched to it while
      // it runs. Only if the listing shows a listener that writes no messages file (one
      // compiled by an older dlfl) is that run stopped and started again with a JSON
      // report (the tests it had begun then run twice).
      unlisted_run_(!request.shard.has_value()) {}

void RuntimeCollection::list_tests() {
  std::vector<std::string> list_env = g_.env;
  list_env.push_back(std::string(DLFL_RT_MESSAGES_ENV) + "=" + listing_messages_.string());
  for (auto& c : list_gtest_tests(g_.binary, list_env)) all_.push_back(c.name);
  listener_messages_ = fs::exists(listing_messages_);
  for (const auto& t : all_)
    if (r_.filter.empty() || gtest_filter_matches(r_.filter, t)) listed_.push_back(t);
  if (listed_.empty()) throw Error(g_.binary.string(), 0, "no test matches the filter '" + r_.filter + "'");
  if (r_.shard) {
    const std::size_t before = listed_.size();
    std::size_t position = 0;
    std::erase_if(listed_, [&](const std::string&) { return !gtest_shard_holds(*r_.shard, position++); });
    if (listed_.empty())
      throw Error(g_.binary.string(), 0,
                  "shard " + std::to_string(r_.shard->index) + "/" + std::to_string(r_.shard->count) +
                      " holds none of its " + std::to_string(before) + " tests");
  }
  result_.stats.listed = listed_.size();
  if (r_.progress) r_.progress->start(listed_.size());
  remaining_ = listed_;
}

void RuntimeCollection::add_ready() {
  for (auto it = records_.end(); added_ < listed_.size() && (it = records_.find(listed_[added_])) != records_.end();
       ++added_) {
    map_.ready().spectrum.add(std::move(it->second));
    records_.erase(it);
  }
}

void RuntimeCollection::complete(const std::string& name) {
  RunsSoFar& r = runs_of_[name];
  if (r.complete) return;
  r.complete = true;
  ++completed_;
  RuntimeTestRecord rec;
  rec.skipped = r.tally.runs() == 0;
  if (!rec.skipped) rec.test = r.tally.joined(RunTimeRule::mean);
  if (r.tally.flaky()) result_.flaky.push_back(r.tally.flaky_label());
  rec.probes = std::move(r.probes);
  if (r_.progress) r_.progress->test_done(rec.test.failed());
  records_[name] = std::move(rec);
}

void RuntimeCollection::add_run(const std::string& name, RuntimeTestRecord&& rec) {
  RunsSoFar& r = runs_of_[name];
  ++r.runs;
  if (!rec.skipped) {
    r.tally.add(rec.test);
    r.probes.insert(r.probes.end(), rec.probes.begin(), rec.probes.end());
  }
  if (r.runs >= repeat_) complete(name);
}

// The tests with the fewest runs so far get the runs they lack in one process (all of
// them, until a crash leaves some tests a run ahead of the others).
std::vector<std::string> RuntimeCollection::next_group(unsigned& iterations) {
  if (unlisted_run_) {  // the listed tests, once they are known
    iterations = repeat_;
    return {};
  }
  if (runs_of_.empty()) {  // the first run: nothing ran yet
    iterations = repeat_;
    return remaining_;
  }
  unsigned fewest = repeat_;
  for (const auto& t : remaining_) fewest = std::min(fewest, runs_of_[t].runs);
  std::vector<std::string> group;
  for (const auto& t : remaining_)
    if (runs_of_[t].runs == fewest) group.push_back(t);
  iterations = repeat_ - fewest;
  return group;
}

void RuntimeCollection::forget_complete_tests() {
  if (completed_ == listed_.size())
    remaining_.clear();  // every listed test is complete (the usual end): no lookup per test
  else
    std::erase_if(remaining_, [&](const std::string& t) { return runs_of_[t].complete; });
}

CollectResult RuntimeCollection::run() {
  const auto started = std::chrono::steady_clock::now();
  if (!unlisted_run_) list_tests();
  while (unlisted_run_ || !remaining_.empty()) {
    if (r_.interrupt && r_.interrupt->load()) throw Error("interrupted");
    unsigned iterations = 0;
    std::vector<std::string> group = next_group(iterations);
    ++result_.stats.processes;
    ProcessRun process(*this, std::move(group), iterations);
    if (!process.run()) {
      --result_.stats.processes;
      continue;
    }
    add_ready();
    forget_complete_tests();
    if (!remaining_.empty() && r_.progress)
      r_.progress->note("restarting the test binary on the " + std::to_string(remaining_.size()) + " remaining tests");
  }
  add_ready();
  if (r_.progress) r_.progress->finish();
  map_.ready().spectrum.finish(result_);
  if (r_.keep_work) result_.work_dir = work_.path();
  result_.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return std::move(result_);
}

CollectResult collect_with_runtime(const CollectRequest& request, const GtestBinary& source) {
  RuntimeCollection collection(request, source);
  return collection.run();
}

}  // namespace dlfl::collect
