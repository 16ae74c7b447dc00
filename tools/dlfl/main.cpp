// dlfl: spectrum-based fault localization for C++/CUDA deep-learning code.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/error.h"

int main(int argc, char** argv) {
  CLI::App app{
      "dlfl: spectrum-based fault localization for the C++/CUDA code of deep-learning frameworks.\n"
      "Ranks program elements by how strongly their execution correlates with failing tests.\n"
      "Example: dlfl rank examples/spectra/softmax --formula ochiai --top 5",
      "dlfl"};
  app.set_version_flag("--version", std::string("dlfl 0.1.0"));
  app.require_subcommand(1);
  dlfl::cli::add_rank_command(app);
  dlfl::cli::add_formulas_command(app);
  dlfl::cli::add_convert_command(app);
  dlfl::cli::add_collect_command(app);
  dlfl::cli::add_instrument_command(app);
  dlfl::cli::add_mutate_command(app);
  dlfl::cli::add_config_command(app);
  dlfl::cli::add_eval_command(app);
  dlfl::cli::add_compare_command(app);
  dlfl::cli::add_bugset_command(app);
  dlfl::cli::add_bench_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return dlfl::cli::kExitBadInput;
  } catch (const dlfl::Error& e) {
    std::cerr << "dlfl: error: " << e.what() << '\n';
    return dlfl::cli::kExitBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    // A file or directory the user named or the environment provides (permissions, a
    // full disk): bad input like dlfl::Error, and its message names the paths.
    std::cerr << "dlfl: error: " << e.what() << '\n';
    return dlfl::cli::kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "dlfl: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
