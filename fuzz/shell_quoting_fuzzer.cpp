// Values substituted into /bin/sh command lines (collect/shell_quoting.h): the input is a
// command template and a value (split at the first NUL). Whatever the template's quoting,
// the inserted text must leave the shell's quoting as it found it, and no '$' or '`' of
// the value may be read by the shell as an expansion (outside single quotes, unescaped).
#include <cstdlib>

#include "dlfl/collect/shell_quoting.h"
#include "dlfl/collect/test_source.h"
#include "fuzz_support.h"

namespace {

using dlfl::collect::ShellQuoteTracker;
using dlfl::collect::ShellQuoting;

// Feeds `inserted` to `t`, aborting on an expansion character the shell would act on.
void check_inserted(ShellQuoteTracker& t, std::string_view inserted) {
  const ShellQuoting before = t.state();
  for (const char c : inserted) {
    const bool literal = t.escaped() || t.state() == ShellQuoting::single;
    if (!literal && (c == '$' || c == '`')) std::abort();
    if (!literal && t.state() == ShellQuoting::none && (c == ';' || c == '|' || c == '&' || c == '\n' || c == ' '))
      std::abort();  // a word or command boundary
    t.feed(c);
  }
  if (t.state() != before || t.escaped()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto nul = input.find('\0');
  const std::string_view command_template = input.substr(0, nul);
  const std::string_view value = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  expect_value_or_error([&] {
    const std::string command = dlfl::collect::instantiate_command(command_template, value);
    // Walk the template again beside the output: literal parts fed as they are, each
    // `{}` checked against what was put in its place.
    ShellQuoteTracker t;
    std::size_t at = 0, pos = 0;
    for (;;) {
      const auto hole = command_template.find("{}", pos);
      const std::string_view literal = command_template.substr(pos, hole - pos);
      if (command.compare(at, literal.size(), literal) != 0) std::abort();
      t.feed(literal);
      at += literal.size();
      if (hole == std::string_view::npos) break;
      ShellQuoteTracker probe = t;
      const std::string inserted = dlfl::collect::quote_for_shell(value, t, "{}");
      if (command.compare(at, inserted.size(), inserted) != 0) std::abort();
      check_inserted(probe, inserted);
      t = probe;
      at += inserted.size();
      pos = hole + 2;
    }
    if (at != command.size()) std::abort();
  });
  return 0;
}
