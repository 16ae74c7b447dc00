// bash and zsh completion scripts for dlfl, generated from the command tree
// (command_tree.h) at build time: `dlfl --generate-completion bash|zsh FILE`. They
// complete the subcommands, each command's options, the values of options with a fixed
// set of names (formats, formulas, granularities, ...) and paths for the rest.
#pragma once

#include <string>

#include "command_tree.h"

namespace dlfl::cli {

// A bash script defining _dlfl and `complete -F _dlfl dlfl` (bash-completion loads it
// from .../bash-completion/completions/dlfl). Needs no bash-completion functions.
std::string bash_completion(const CommandInfo& root);

// A zsh completion function file (#compdef dlfl; installed as _dlfl on $fpath).
std::string zsh_completion(const CommandInfo& root);

}  // namespace dlfl::cli
