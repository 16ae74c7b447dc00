// dlfl: spectrum-based fault localization for C++/CUDA deep-learning code.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>

#include "clang_helper.h"
#include "cli_support.h"
#include "commands.h"
#include "generated_docs.h"
#include "dlfl/error.h"
#include "dlfl_build_commit.h"
#include "dlfl/files/atomic_file.h"

namespace {

// CLI11 turns "-1" into a huge unsigned value without complaint: every unsigned option of
// every subcommand refuses negative numbers instead.
void refuse_negative_unsigned(CLI::App& app) {
  const CLI::Validator non_negative(
      [](std::string& value) {
        const auto first = value.find_first_not_of(" \t");
        return first != std::string::npos && value[first] == '-' ? value + " is negative; give 0 or more"
                                                                  : std::string();
      },
      "");
  for (CLI::Option* option : app.get_options())
    if (option->get_type_name() == "UINT") option->check(non_negative);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuse_negative_unsigned(*sub);
}

// A usage error in one line, like every other error: `dlfl: error: WHAT (see dlfl [SUB] --help)`.
int usage_error(const CLI::App& app, std::string what) {
  std::replace(what.begin(), what.end(), '\n', ' ');
  std::string help = "dlfl";
  for (const CLI::App* sub = &app; !sub->get_subcommands().empty();) {
    sub = sub->get_subcommands().front();
    help += " " + sub->get_name();
  }
  std::cerr << "dlfl: error: " << dlfl::cli::printable(what) << " (see " << help << " --help)\n";
  return dlfl::cli::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  // Ctrl-C or a kill during `rank -o`/`convert` must not leave hidden temporaries.
  dlfl::io::remove_temporaries_on_signals();
  dlfl::cli::set_command_line(argv);  // for the commands that run in dlfl-clang
  CLI::App app{
      "dlfl: spectrum-based fault localization for the C++/CUDA code of deep-learning frameworks.\n"
      "Ranks program elements by how strongly their execution correlates with failing tests.\n"
      "Example: dlfl rank examples/spectra/softmax --formula ochiai --top 5",
      "dlfl"};
  // The commit too: two builds of 0.1.0 can differ by hundreds of commits.
  app.set_version_flag("--version", std::string("dlfl " DLFL_VERSION_STRING " (commit " DLFL_BUILD_COMMIT ")"));
  app.require_subcommand(1);
  // `dlfl --help` lists the commands in two groups, each in the order of a session: those
  // that localize faults (coverage in, ranking out), then those that evaluate and
  // benchmark localization (ground truth, bug sets, seeded faults).
  dlfl::cli::add_collect_command(app);
  dlfl::cli::add_instrument_command(app);
  dlfl::cli::add_config_command(app);
  dlfl::cli::add_callgraph_command(app);
  dlfl::cli::add_rank_command(app);
  dlfl::cli::add_kill_matrix_command(app);
  dlfl::cli::add_formulas_command(app);
  dlfl::cli::add_convert_command(app);
  dlfl::cli::add_merge_command(app);
  for (CLI::App* sub : app.get_subcommands({})) sub->group("Localize");
  dlfl::cli::add_eval_command(app);
  dlfl::cli::add_compare_command(app);
  dlfl::cli::add_bench_command(app);
  dlfl::cli::add_mutate_command(app);
  dlfl::cli::add_versions_command(app);
  dlfl::cli::add_bugset_command(app);
  for (CLI::App* sub : app.get_subcommands({}))
    if (sub->get_group() != "Localize") sub->group("Evaluate and benchmark");
  refuse_negative_unsigned(app);
  const auto commands = app.get_subcommands([](CLI::App*) { return true; });
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(commands.begin(), commands.end(), [&](CLI::App* sub) { return sub->check_name(argv[1]); })) {
    std::string names;
    for (const CLI::App* sub : commands) names += (names.empty() ? "" : ", ") + sub->get_name();
    std::cerr << "dlfl: error: unknown command '" << dlfl::cli::printable(argv[1]) << "'; the commands are " << names
              << " (see dlfl --help)\n";
    return dlfl::cli::kExitBadInput;
  }
  try {
    // The build's man pages and completions (generated_docs.h), from this very tree.
    if (const auto status = dlfl::cli::generate_docs(app, argc, argv)) return *status;
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {
    // No subcommand at all: the overview is the useful answer, but it is still an error.
    if (app.get_subcommands().empty()) return usage_error(app, "a command is required");
    return usage_error(app, e.what());
  } catch (const CLI::ParseError& e) {
    return usage_error(app, e.what());
  } catch (const dlfl::Error& e) {
    dlfl::cli::print_error(e.message());  // what() would stop at a NUL byte the message holds
    return dlfl::cli::kExitBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    // A file or directory the user named or the environment provides (permissions, a
    // full disk): bad input like dlfl::Error, and its message names the paths.
    dlfl::cli::print_error(e.what());
    return dlfl::cli::kExitBadInput;
  } catch (const std::exception& e) {
    dlfl::cli::print_error(e.what());
    return 1;
  }
  return 0;
}
