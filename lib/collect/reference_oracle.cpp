// The differential oracle: reference runs, their cache, and the comparison.
#include "dlfl/collect/reference_oracle.h"

#include <fmt/format.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMagic = "dlfl-reference 1 ";

std::string end_word(ProcessEnd end) { return end == ProcessEnd::signaled ? "signal" : "exit"; }

// A printable, bounded excerpt of one output line for a message.
std::string excerpt(std::string_view line) {
  std::string out;
  for (const char c : line.substr(0, 60)) out += (c >= ' ' && c != 0x7f) ? c : '?';
  return "'" + out + (line.size() > 60 ? "...'" : "'");
}

std::string_view line_at(std::string_view text, std::size_t begin) {
  const auto end = text.find('\n', begin);
  return text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
}

}  // namespace

ReferenceOracle::ReferenceOracle(std::string command_template, fs::path cache_dir, std::chrono::milliseconds timeout)
    : template_(std::move(command_template)), cache_dir_(std::move(cache_dir)), timeout_(timeout) {
  if (template_.find("{}") == std::string::npos)
    throw Error(fmt::format("the reference command '{}' has no {{}} for the test name", template_));
  std::error_code ec;
  fs::create_directories(cache_dir_, ec);
  if (ec) throw Error(cache_dir_.string(), 0, "cannot create the reference cache: " + ec.message());
}

ReferenceResult ReferenceOracle::expected(const TestCommand& test, const std::atomic<bool>* cancel) const {
  ShellCommand command = instantiate_command(template_, test.name);
  // The name is in the environment, not in the command's text: the key holds both.
  const std::string key = command.text + '\0' + test.name + '\0' + test.cwd.string();
  const fs::path cached = cache_dir_ / fmt::format("{:016x}.ref", XXH3_64bits(key.data(), key.size()));

  if (std::ifstream in{cached, std::ios::binary}) {
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string text = bytes.str();
    const auto newline = text.find('\n');
    ReferenceResult r;
    std::istringstream header(text.substr(0, newline == std::string::npos ? 0 : newline));
    std::string magic, version, word;
    if (newline == std::string::npos || !(header >> magic >> version >> word >> r.code) ||
        magic + " " + version + " " != kMagic || (word != "exit" && word != "signal"))
      throw Error(cached.string(), 1, "not a dlfl reference result (remove the file to run the reference again)");
    r.end = word == "signal" ? ProcessEnd::signaled : ProcessEnd::exited;
    r.out = text.substr(newline + 1);
    return r;
  }

  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", command.text};
  spec.cwd = test.cwd;
  spec.env_set = test.env;
  // The reference's own name variable replaces the test command's (the same name).
  std::erase_if(spec.env_set, [](const std::string& e) { return e.starts_with(std::string(kTestNameVariable) + "="); });
  for (auto& entry : command.env) spec.env_set.push_back(std::move(entry));
  spec.timeout = timeout_;
  spec.merge_stderr = false;
  spec.stdout_limit = SIZE_MAX;
  const ProcessResult run = run_process(spec, cancel);
  if (run.end == ProcessEnd::cancelled) return {};
  if (run.end == ProcessEnd::timed_out)
    throw Error(fmt::format("reference run of test {} ({}) timed out after {} s: the oracle cannot judge it", test.name,
                            command.text, timeout_.count() / 1000.0));
  ReferenceResult r{run.end, run.end == ProcessEnd::signaled ? run.signal : run.exit_code, run.out};

  // Written under a unique name and renamed: a concurrent or killed run never leaves a
  // half-written result that a later run would trust.
  const fs::path temporary = cached.string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                             std::to_string(XXH3_64bits(test.name.data(), test.name.size()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << kMagic << end_word(r.end) << ' ' << r.code << '\n' << r.out;
    if (!out.flush()) throw Error(temporary.string(), 0, "cannot write the reference result");
  }
  std::error_code ec;
  fs::rename(temporary, cached, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw Error(cached.string(), 0, "cannot store the reference result");
  }
  return r;
}

std::optional<std::string> ReferenceOracle::difference(const ReferenceResult& reference, const ProcessResult& run) {
  const int code = run.end == ProcessEnd::signaled ? run.signal : run.exit_code;
  const ProcessEnd end = run.end == ProcessEnd::signaled ? ProcessEnd::signaled : ProcessEnd::exited;
  if (end != reference.end || code != reference.code)
    return fmt::format("{} {}, the reference's {} {}", end == ProcessEnd::exited ? "exit status" : "signal", code,
                       reference.end == ProcessEnd::exited ? "exit status" : "signal", reference.code);
  if (run.out == reference.out) return std::nullopt;
  const std::string_view got = run.out, want = reference.out;
  const auto at = static_cast<std::size_t>(std::mismatch(got.begin(), got.begin() + std::min(got.size(), want.size()),
                                                         want.begin())
                                               .first -
                                           got.begin());
  const std::size_t line = static_cast<std::size_t>(std::count(got.begin(), got.begin() + at, '\n')) + 1;
  // Bytes before `at` are equal, so the line starts there in both outputs.
  const std::size_t previous_newline = at == 0 ? std::string_view::npos : got.rfind('\n', at - 1);
  const std::size_t begin = previous_newline == std::string_view::npos ? 0 : previous_newline + 1;
  return fmt::format("stdout differs from the reference's at line {}: {} instead of {}", line,
                     excerpt(line_at(got, begin)), excerpt(line_at(want, begin)));
}

}  // namespace dlfl::collect
