// Shared pieces of the subcommands.
#include "cli_support.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "dlfl/lab/bench/bench_runner.h"
#include "dlfl/collect/process.h"
#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/printable.h"

namespace dlfl::cli {

void write_output(const std::string& path, const std::function<void(std::ostream&)>& emit) {
  if ((path.empty() || path == "-") && ::isatty(STDOUT_FILENO)) {
    // On a terminal every output (CSV and JSON too) is shown line by line as printable
    // text: a name from the code base holding ESC cannot move the cursor or recolour it.
    std::ostringstream text;
    emit(text);
    std::istringstream lines(text.str());
    for (std::string line; std::getline(lines, line);) std::cout << printable(line) << '\n';
    std::cout.flush();
    return;
  }
  if (path.empty() || path == "-") {
    emit(std::cout);
    std::cout.flush();
    return;
  }
  io::AtomicFile out(path);
  emit(out.stream());
  out.commit();
}

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_resumable_run_interrupt(int) { g_interrupted.store(true); }
struct sigaction g_old_int {}, g_old_term {};

}  // namespace

InterruptScope::InterruptScope() {
  g_interrupted = false;
  struct sigaction sa {};
  sa.sa_handler = on_resumable_run_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

const std::atomic<bool>& InterruptScope::flag() { return g_interrupted; }

void report_resumable_run(const std::filesystem::path& out, std::size_t resumed, std::size_t pending,
                          bool interrupted, std::string_view unit) {
  std::cerr << "dlfl: per-bug table " << (out / std::string(bench::kBugTableFileName)).string() << ", discarded "
            << (out / std::string(bench::kDiscardedFileName)).string() << ", summary "
            << (out / std::string(bench::kSummaryFileName)).string() << '\n';
  if (resumed) std::cerr << "dlfl: " << resumed << ' ' << unit << " were finished by an earlier run\n";
  if (pending)
    std::cerr << "dlfl: " << pending << ' ' << unit << " pending" << (interrupted ? " (interrupted)" : "")
              << "; run the same command again to continue\n";
  if (interrupted) {
    std::cout.flush();
    std::exit(130);
  }
}

void warn(std::string_view message) { std::cerr << "dlfl: warning: " << printable(message) << '\n'; }

void print_error(std::string_view message) { std::cerr << "dlfl: error: " << printable(message) << '\n'; }

std::string printable(std::string_view message) { return dlfl::printable(message); }

std::filesystem::path self_executable() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot locate the dlfl executable (/proc/self/exe): " + ec.message());
  return self;
}

std::string runtime_flags(const std::vector<std::string>& args) {
  collect::ProcessSpec spec;
  spec.argv = {self_executable().string(), "config"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.merge_stderr = false;
  const auto r = collect::run_process(spec);
  if (!r.ok()) throw Error("the runtime backend needs the dlfl runtime: `dlfl config` says: " + r.err);
  std::string out = r.out;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::vector<std::string> name_choices(std::span<const std::string_view> names) {
  return {names.begin(), names.end()};
}

}  // namespace dlfl::cli
