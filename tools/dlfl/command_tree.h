// The dlfl command line as data, read from the CLI11 definitions themselves: what the man
// pages (man_pages.h) and the shell completions (shell_completion.h) are generated from,
// so that neither can drift from `--help`.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dlfl::cli {

// What a value of an option is completed with.
enum class ValueKind {
  file,     // a path (the default for a value nobody lists)
  choices,  // one of OptionInfo::choices
  none,     // a number: nothing to offer
};

struct OptionInfo {
  std::vector<std::string> names;  // "-f", "--formula" (short first); empty for a positional
  std::string positional;          // "INPUT" for a positional, else empty
  std::string value_name;          // "TEXT", "UINT", ... (CLI11's type name); empty for a flag
  std::string description;         // as --help prints it
  std::string group;               // CLI11's option group ("Options", "Coverage", ...)
  std::string details;             // choices, default and requirements, as --help shows them
  bool takes_value = false;
  bool repeatable = false;
  bool required = false;
  ValueKind value_kind = ValueKind::file;
  std::vector<std::string> choices;  // the accepted names, for ValueKind::choices
};

struct CommandInfo {
  std::vector<std::string> path;  // {} for dlfl itself, {"bugset", "reproduce"}
  std::string description;        // the whole --help description (several lines)
  std::string group;              // "Localize", "Evaluate and benchmark"; empty for dlfl
  std::vector<OptionInfo> options;      // named options, --help included, in definition order
  std::vector<OptionInfo> positionals;  // in order
  std::vector<CommandInfo> subcommands;

  // "dlfl", "dlfl rank", "dlfl bugset reproduce".
  std::string command_line() const;
  // "dlfl", "dlfl-rank", "dlfl-bugset-reproduce": the man page's name.
  std::string page_name() const;
  // The first line of the description.
  std::string summary() const;
};

// The names `dlfl rank --formula` takes besides dstar:N and expressions: the built-in
// formulas, for the completion of every option named --formula.
std::vector<std::string> formula_names();

// Reads `app` after every subcommand was added. Hidden options and subcommands (CLI11's
// empty group) are left out, as --help leaves them out.
CommandInfo read_command_tree(const CLI::App& app);

// Every command of the tree, depth first, the root first.
std::vector<const CommandInfo*> all_commands(const CommandInfo& root);

}  // namespace dlfl::cli
