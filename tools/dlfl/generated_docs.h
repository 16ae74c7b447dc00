// `dlfl --generate-man-pages DIR` and `dlfl --generate-completion bash|zsh FILE`: the
// build writes dlfl's man pages and shell completions with dlfl itself, from the same
// CLI11 tree that answers --help. Not listed in --help: they are for the build.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>

namespace dlfl::cli {

// When argv asks for generated documentation: writes it and returns the exit status
// (2 with a one-line error for a wrong call). Otherwise nullopt: a normal command line.
std::optional<int> generate_docs(const CLI::App& app, int argc, char** argv);

}  // namespace dlfl::cli
