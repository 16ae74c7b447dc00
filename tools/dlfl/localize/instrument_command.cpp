// `dlfl instrument -p BUILD --out DIR [SOURCES...]`: writes a probed copy of a source tree.
#include <iostream>

#include "clang_helper.h"
#include "cli_support.h"
#include "commands.h"
#include "dlfl/error.h"

#ifdef DLFL_HAVE_INSTRUMENT
#include "dlfl/instrument/instrumenter.h"
#endif

namespace dlfl::cli {
namespace {

struct InstrumentCommandOptions {
  std::string build_dir;
  std::string out_dir;
  std::string root;
  std::vector<std::string> sources;
  std::vector<std::string> exclude;
  std::vector<std::string> extra_args;
  std::string granularity = "statement";
  unsigned jobs = 0;
  bool no_headers = false;
  bool no_copy = false;
  bool allow_errors = false;
  bool quiet = false;
};

void run_instrument(const InstrumentCommandOptions& o) {
#ifdef DLFL_HAVE_INSTRUMENT
  instrument::InstrumentOptions options;
  options.build_dir = o.build_dir;
  options.out_dir = o.out_dir;
  options.root = o.root;
  options.sources = o.sources;
  options.exclude = o.exclude;
  options.extra_args = o.extra_args;
  options.granularity = *instrument::parse_probe_granularity(o.granularity);  // checked by the option
  options.headers = !o.no_headers;
  options.copy_tree = !o.no_copy;
  options.allow_errors = o.allow_errors;
  options.jobs = o.jobs;
  if (!o.quiet) options.log = [](std::string_view line) { std::cerr << "dlfl: " << line << '\n'; };
  const auto result = instrument::instrument(options);
  if (!o.quiet && result.skipped_functions)
    std::cerr << "dlfl: left " << result.skipped_functions
              << " consteval/coroutine/naked functions without probes\n";
  if (!o.quiet)
    std::cerr << "dlfl: call graph of " << result.functions << " functions and " << result.calls << " calls in "
              << result.call_graph.string() << '\n';
  std::cout << result.probe_map.string() << '\n';
#else
  (void)o;
  run_in_clang_helper("instrument");
  throw Error(
      "this dlfl was built without the Clang 14 development packages, so `dlfl instrument` is not "
      "available (install libclang-14-dev libclang-cpp14-dev llvm-14-dev and rebuild)");
#endif
}

}  // namespace

void add_instrument_command(CLI::App& app) {
  auto o = std::make_shared<InstrumentCommandOptions>();
  auto* cmd = app.add_subcommand(
      "instrument",
      "Write a copy of a source tree with a coverage probe before every statement (or basic block) of every\n"
      "function, plus the probe map (dlfl-probes.map). Build the copy as usual, adding\n"
      "$(dlfl config --cflags) and $(dlfl config --libs --gtest), then run `dlfl collect --runtime`.\n"
      "Example: dlfl instrument -p build --root . --out instr --exclude tests/ && \\\n"
      "         cmake -S instr -B instr/build -DCMAKE_CXX_FLAGS=\"$(dlfl config --cflags)\" \\\n"
      "           -DCMAKE_EXE_LINKER_FLAGS=\"$(dlfl config --libs --gtest)\"");
  cmd->add_option("-p,--build-dir", o->build_dir, "Build directory holding compile_commands.json")->required();
  cmd->add_option("-o,--out", o->out_dir, "Output directory for the instrumented tree and probe map")->required();
  cmd->add_option("--root", o->root,
                  "Source root mirrored into --out; only files under it get probes (default: the common "
                  "directory of the sources)");
  cmd->add_option("SOURCES", o->sources,
                  "Translation units to instrument: paths or path suffixes (default: every one in the "
                  "compilation database under --root)");
  cmd->add_option("--granularity", o->granularity, "statement (default) or block (one probe per basic block)")
      ->check(CLI::IsMember({"statement", "block"}));
  cmd->add_option("-x,--exclude", o->exclude, "Never rewrite files whose path under --root contains this text (repeatable)");
  cmd->add_option("--extra-arg", o->extra_args, "Extra argument for clang's parse of every unit (repeatable)");
  cmd->add_option("-j,--jobs", o->jobs,
                  "Translation units parsed in parallel (default: hardware threads); the output is the same for any N");
  cmd->add_flag("--no-headers", o->no_headers, "Only rewrite the translation units, not the headers they include");
  cmd->add_flag("--no-copy", o->no_copy, "Only write rewritten files, not a copy of the rest of the tree");
  cmd->add_flag("--allow-errors", o->allow_errors, "Rewrite units even when clang reports errors in them");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress messages");
  cmd->callback([o] { run_instrument(*o); });
}

}  // namespace dlfl::cli
