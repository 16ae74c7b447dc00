// `dlfl mutate -p BUILD --files GLOB --out DIR`: seeds single faults as patches plus ground truth.
#include <iomanip>
#include <iostream>
#include <map>

#include "clang_helper.h"
#include "cli_support.h"
#include "commands.h"
#include "dlfl/error.h"
#include "dlfl/lab/mutate/mutant_output.h"
#include "dlfl/lab/mutate/operators.h"
#include "dlfl/lab/mutate/sampling.h"

#ifdef DLFL_HAVE_MUTATE
#include "dlfl/lab/mutate/mutator.h"
#endif

namespace dlfl::cli {
namespace {

struct MutateCommandOptions {
  std::string build_dir;
  std::string root;
  std::string out_dir;
  std::vector<std::string> files;
  std::vector<std::string> exclude;
  std::vector<std::string> operators;
  std::vector<std::string> extra_args;
  std::uint64_t seed = 1;
  std::size_t max = 0;
  bool list_operators = false;
  bool allow_errors = false;
  bool quiet = false;
};

void print_operators(std::ostream& out) {
  std::size_t width = 0;
  for (const auto& info : mutate::operator_catalog()) width = std::max(width, info.name.size());
  out << std::left << std::setw(static_cast<int>(width) + 2) << "operator" << std::setw(13) << "bug type"
      << "pattern -> mutant\n";
  for (const auto& info : mutate::operator_catalog())
    out << std::setw(static_cast<int>(width) + 2) << info.name << std::setw(13) << mutate::to_string(info.bug_type)
        << info.summary << '\n';
}

#ifdef DLFL_HAVE_MUTATE
// "tensor 12 (swap_dims 7, transpose_index 5), gpu 3 (...)": what was written, by type.
std::string summary(const std::vector<mutate::Mutant>& mutants) {
  std::map<std::string, std::map<std::string, std::size_t>> by_type;
  for (const auto& m : mutants) ++by_type[std::string(mutate::to_string(m.bug_type))][m.op];
  std::string out;
  for (const auto& [type, ops] : by_type) {
    std::size_t total = 0;
    std::string detail;
    for (const auto& [op, n] : ops) {
      total += n;
      detail += (detail.empty() ? "" : ", ") + op + " " + std::to_string(n);
    }
    out += "\n  " + type + " " + std::to_string(total) + " (" + detail + ")";
  }
  return out;
}
#endif

void run_mutate(const MutateCommandOptions& o) {
  if (o.list_operators) {
    print_operators(std::cout);
    return;
  }
  // Resolve the operator names before the (slow) parse: typos fail fast.
  const auto operators = mutate::select_operators(o.operators);
#ifdef DLFL_HAVE_MUTATE
  if (o.build_dir.empty()) throw Error("mutate: --build-dir (-p) is required");
  mutate::MutateOptions options;
  options.build_dir = o.build_dir;
  options.root = o.root;
  options.files = o.files;
  options.exclude = o.exclude;
  options.operators = operators;
  options.extra_args = o.extra_args;
  options.allow_errors = o.allow_errors;
  if (!o.quiet) options.log = [](std::string_view line) { std::cerr << "dlfl: " << line << '\n'; };
  const auto all = mutate::find_mutants(options);
  const auto chosen = mutate::stratified_sample(all, o.max, o.seed);
  if (o.out_dir.empty()) {
    for (const auto& m : chosen) std::cout << mutate::manifest_line(m) << '\n';
  } else {
    const std::filesystem::path root = o.root.empty() ? std::filesystem::current_path() : std::filesystem::path(o.root);
    mutate::write_mutants(o.out_dir, root, chosen);
    std::cout << (std::filesystem::path(o.out_dir) / mutate::kManifestFileName).string() << '\n';
  }
  if (!o.quiet)
    std::cerr << "dlfl: " << (o.out_dir.empty() ? "listed " : "wrote ") << chosen.size() << " of " << all.size()
              << " mutants" << summary(chosen) << '\n';
#else
  (void)operators;
  run_in_clang_helper("mutate");
  throw Error(
      "this dlfl was built without the Clang 14 development packages, so `dlfl mutate` is not available "
      "(install libclang-14-dev libclang-cpp14-dev llvm-14-dev and rebuild)");
#endif
}

}  // namespace

void add_mutate_command(CLI::App& app) {
  auto o = std::make_shared<MutateCommandOptions>();
  auto* cmd = app.add_subcommand(
      "mutate",
      "Seed single faults into C++/CUDA sources: every mutant is one small edit, written as a patch\n"
      "(<out>/<id>.patch, apply with `patch -p1` or `git apply` in --root) with its ground truth in\n"
      "<out>/mutants.jsonl (file, lines, operator, bug type, function, original and replacement text).\n"
      "Operators imitate DL bug types (tensor, training, model, api, gpu, numerics) and traditional faults;\n"
      "see --list-operators. Without --out the ground truth is printed instead.\n"
      "Example: dlfl mutate -p build --root . --files 'src/*.cpp' --files 'cuda/*.cu' --max 200 --seed 7 \\\n"
      "           --out mutants");
  cmd->add_option("-p,--build-dir", o->build_dir, "Build directory holding compile_commands.json");
  cmd->add_option("--root", o->root, "Source root: patch paths are relative to it (default: current directory)");
  cmd->add_option("--files", o->files,
                  "Glob of files to mutate, relative to --root: * and ? within a directory, ** across "
                  "(repeatable; default: every file under --root)");
  cmd->add_option("-x,--exclude", o->exclude, "Glob of files never mutated, e.g. 'tests/**' (repeatable)");
  cmd->add_option("-o,--out", o->out_dir, "Directory for the patches and mutants.jsonl (created)");
  cmd->add_option("--operators", o->operators,
                  "Operators to use: names, bug types (tensor, training, model, api, gpu, numerics, traditional), "
                  "'dl' or 'all'; comma-separated or repeated (default: all)");
  cmd->add_option("--max", o->max,
                  "At most N mutants, stratified: operators take turns, each picking from its own seeded "
                  "shuffle (default 0: all)");
  cmd->add_option("--seed", o->seed, "Seed of the --max sample (default 1); same seed, same mutants");
  cmd->add_flag("--list-operators", o->list_operators, "Print the operators with their bug type and pattern");
  cmd->add_option("--extra-arg", o->extra_args, "Extra argument for clang's parse of every unit (repeatable)");
  cmd->add_flag("--allow-errors", o->allow_errors, "Mutate units even when clang reports errors in them");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress messages or summary");
  cmd->callback([o] { run_mutate(*o); });
}

}  // namespace dlfl::cli
