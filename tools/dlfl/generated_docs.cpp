// The hidden generator entry points (generated_docs.h).
#include "generated_docs.h"

#include <string_view>

#include "cli_support.h"
#include "man_pages.h"
#include "shell_completion.h"

namespace dlfl::cli {

std::optional<int> generate_docs(const CLI::App& app, int argc, char** argv) {
  const std::string_view what = argc > 1 ? argv[1] : "";
  if (what != "--generate-man-pages" && what != "--generate-completion") return std::nullopt;
  const CommandInfo root = read_command_tree(app);
  if (what == "--generate-man-pages" && argc == 3) {
    write_man_pages(root, "dlfl " DLFL_VERSION_STRING, argv[2]);
    return 0;
  }
  const std::string_view shell = argc == 4 ? argv[2] : "";
  if (shell == "bash" || shell == "zsh") {
    const std::string script = shell == "bash" ? bash_completion(root) : zsh_completion(root);
    write_output(argv[3], [&](std::ostream& out) { out << script; });
    return 0;
  }
  print_error("usage: dlfl --generate-man-pages DIR | dlfl --generate-completion bash|zsh FILE");
  return kExitBadInput;
}

}  // namespace dlfl::cli
