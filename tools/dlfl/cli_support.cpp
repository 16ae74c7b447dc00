// Shared pieces of the subcommands.
#include "cli_support.h"

#include <signal.h>

#include <cstdlib>
#include <iostream>

#include "dlfl/bench/bench_runner.h"
#include "dlfl/io/atomic_file.h"

namespace dlfl::cli {

void write_output(const std::string& path, const std::function<void(std::ostream&)>& emit) {
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

namespace {

// Length of the valid UTF-8 sequence at the start of `s` (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF), 0 when there is none.
std::size_t utf8_sequence(std::string_view s) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b = byte(0);
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xBF;  // bounds of the second byte
  if (b >= 0xC2 && b <= 0xDF) n = 2;
  else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
    if (b == 0xE0) low = 0xA0;
    if (b == 0xED) high = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
    if (b == 0xF0) low = 0x90;
    if (b == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (s.size() < n || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view message) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(message.size());
  for (std::size_t i = 0; i < message.size();) {
    const auto c = static_cast<unsigned char>(message[i]);
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (c == '\r' || c == '\n' || c == '\t') {
      out += c == '\r' ? "\\r" : c == '\n' ? "\\n" : "\\t";
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_sequence(message.substr(i)) : 0; n > 0) {
      out.append(message.substr(i, n));
      i += n;
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
      ++i;
    }
  }
  return out;
}

}  // namespace dlfl::cli
