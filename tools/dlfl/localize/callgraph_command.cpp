// `dlfl callgraph -p BUILD -o FILE [SOURCES...]`: the static call graph of a source tree
// (what `dlfl instrument` writes beside its probe map), for users of the gcov/llvm path.
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

struct CallGraphCommandOptions {
  std::string build_dir;
  std::string output;
  std::string root;
  std::vector<std::string> sources;
  std::vector<std::string> exclude;
  std::vector<std::string> extra_args;
  unsigned jobs = 0;
  bool allow_errors = false;
  bool quiet = false;
};

void run_callgraph(const CallGraphCommandOptions& o) {
#ifdef DLFL_HAVE_INSTRUMENT
  instrument::InstrumentOptions options;
  options.build_dir = o.build_dir;
  options.root = o.root;
  options.sources = o.sources;
  options.exclude = o.exclude;
  options.extra_args = o.extra_args;
  options.allow_errors = o.allow_errors;
  options.jobs = o.jobs;
  options.call_graph_only = true;
  options.call_graph = o.output;
  if (!o.quiet) options.log = [](std::string_view line) { std::cerr << "dlfl: " << line << '\n'; };
  const auto result = instrument::instrument(options);
  if (!o.quiet)
    std::cerr << "dlfl: call graph of " << result.functions << " functions and " << result.calls << " calls\n";
  std::cout << result.call_graph.string() << '\n';
#else
  (void)o;
  run_in_clang_helper("callgraph");
  throw Error(
      "this dlfl was built without the Clang 14 development packages, so `dlfl callgraph` is not "
      "available (install libclang-14-dev libclang-cpp14-dev llvm-14-dev and rebuild)");
#endif
}

}  // namespace

void add_callgraph_command(CLI::App& app) {
  auto o = std::make_shared<CallGraphCommandOptions>();
  auto* cmd = app.add_subcommand(
      "callgraph",
      "Write the static call graph of a source tree (callers, callees, virtual overrides, CUDA launches, lambdas;\n"
      "calls through function pointers marked unknown) for `dlfl rank --propagate ... --call-graph FILE`.\n"
      "`dlfl instrument` writes the same file beside its probe map; this is for gcov/llvm coverage users.\n"
      "Example: dlfl callgraph -p build --root . --exclude tests/ -o callgraph.tsv");
  cmd->add_option("-p,--build-dir", o->build_dir, "Build directory holding compile_commands.json")->required();
  cmd->add_option("-o,--output", o->output, "The call graph file, written atomically")->required();
  cmd->add_option("--root", o->root,
                  "Only functions defined under this directory are nodes (default: the common directory of the sources)");
  cmd->add_option("SOURCES", o->sources, "Translation units (default: every one in the compilation database under --root)");
  cmd->add_option("-x,--exclude", o->exclude, "Leave out files whose path under --root contains this text (repeatable)");
  cmd->add_option("--extra-arg", o->extra_args, "Extra argument for clang's parse of every unit (repeatable)");
  cmd->add_option("-j,--jobs", o->jobs, "Translation units parsed in parallel (default: hardware threads)");
  cmd->add_flag("--allow-errors", o->allow_errors, "Use units even when clang reports errors in them");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress messages");
  cmd->callback([o] { run_callgraph(*o); });
}

}  // namespace dlfl::cli
