// `dlfl formulas`: every built-in formula with its definition, one per line.
#include <fmt/format.h>

#include <iostream>

#include "commands.h"
#include "dlfl/formula.h"

namespace dlfl::cli {

void add_formulas_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("formulas",
                                 "List the built-in formulas: name, definition, zero-division rule, source.\n"
                                 "Also accepted: dstar:N (DStar with exponent N) and custom expressions\n"
                                 "over ef, ep, nf, np, e.g. --formula 'ef / sqrt((ef+nf)*(ef+ep))'.");
  auto verbose = std::make_shared<bool>(false);
  cmd->add_flag("-v,--verbose", *verbose, "Also print each zero-division rule and source");
  cmd->callback([verbose] {
    std::size_t width = 0;
    for (const auto& f : builtin_formulas()) width = std::max(width, f.name.size());
    for (const auto& f : builtin_formulas()) {
      std::cout << fmt::format("{:<{}}  {}", f.name, width, f.definition);
      if (*verbose) std::cout << fmt::format("  [{}; {}]", f.zero_rule, f.source);
      std::cout << '\n';
    }
  });
}

}  // namespace dlfl::cli
