// Values substituted into /bin/sh command lines (collect/shell_quoting.h): the input is a
// command template and a value (split at the first NUL). A test name reaches the shell
// through the environment only: the command text must not depend on the value, the
// environment must carry it exactly, and each reference put in a placeholder's place must
// leave the shell's quoting as it found it. Paths (quote_for_shell) must leave it so too,
// with no '$' or '`' of the value read as an expansion.
#include <cstdlib>

#include "dlfl/collect/shell_quoting.h"
#include "dlfl/collect/test_source.h"
#include "fuzz_support.h"

namespace {

using dlfl::collect::ShellQuoteTracker;
using dlfl::collect::ShellQuoting;

// Feeds `inserted` to `t`; with `literal_value`, aborts on an expansion character or a
// word or command boundary the shell would act on.
void check_inserted(ShellQuoteTracker& t, std::string_view inserted, bool literal_value) {
  const ShellQuoting before = t.state();
  const bool arithmetic = t.in_arithmetic();
  for (const char c : inserted) {
    const bool literal = t.escaped() || t.state() == ShellQuoting::single;
    if (literal_value && !literal && (c == '$' || c == '`')) std::abort();
    if (literal_value && !literal && t.state() == ShellQuoting::none &&
        (c == ';' || c == '|' || c == '&' || c == '\n' || c == ' '))
      std::abort();  // a word or command boundary
    t.feed(c);
  }
  if (t.state() != before || t.escaped() || t.in_arithmetic() != arithmetic) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto nul = input.find('\0');
  const std::string_view command_template = input.substr(0, nul);
  const std::string_view value = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  expect_value_or_error([&] {
    const dlfl::collect::ShellCommand command = dlfl::collect::instantiate_command(command_template, value);
    if (command.text != dlfl::collect::instantiate_command(command_template, "other").text) std::abort();
    if (command.env.size() != 1 || command.env[0] != "DLFL_TEST_NAME=" + std::string(value)) std::abort();
    // Walk the template again beside the output: literal parts fed as they are, each
    // `{}` checked against what was put in its place.
    ShellQuoteTracker t, paths;
    std::size_t at = 0, pos = 0;
    for (;;) {
      const auto hole = command_template.find("{}", pos);
      const std::string_view literal = command_template.substr(pos, hole - pos);
      if (command.text.compare(at, literal.size(), literal) != 0) std::abort();
      t.feed(literal);
      paths.feed(literal);
      at += literal.size();
      if (hole == std::string_view::npos) break;
      const std::string inserted = dlfl::collect::reference_for_shell("DLFL_TEST_NAME", t, "{}");
      if (command.text.compare(at, inserted.size(), inserted) != 0) std::abort();
      check_inserted(t, inserted, false);
      // Paths are refused where their quoting cannot hold (backquotes, ${...}).
      if (!paths.in_backquotes_or_parameter()) {
        ShellQuoteTracker probe = paths;
        check_inserted(probe, dlfl::collect::quote_for_shell(value, paths, "{}"), true);
      }
      paths.feed(inserted);  // keep both trackers on the command text itself
      at += inserted.size();
      pos = hole + 2;
    }
    if (at != command.text.size()) std::abort();
  });
  return 0;
}
