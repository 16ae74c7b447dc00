// The subcommands of the dlfl tool: each adds itself to the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace dlfl::cli {

void add_rank_command(CLI::App& app);
void add_formulas_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_collect_command(CLI::App& app);
void add_instrument_command(CLI::App& app);
void add_callgraph_command(CLI::App& app);
void add_kill_matrix_command(CLI::App& app);
void add_mutate_command(CLI::App& app);
void add_config_command(CLI::App& app);
void add_eval_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_bugset_command(CLI::App& app);
void add_bugset_reproduce_command(CLI::App& bugset);  // called by add_bugset_command
void add_bugset_join_command(CLI::App& bugset);       // called by add_bugset_command
void add_bugset_truth_command(CLI::App& bugset);      // called by add_bugset_command
void add_bench_command(CLI::App& app);
void add_merge_command(CLI::App& app);
void add_versions_command(CLI::App& app);

}  // namespace dlfl::cli
