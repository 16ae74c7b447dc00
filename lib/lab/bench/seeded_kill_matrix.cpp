// A kept seeded fault's kill matrix (include/dlfl/lab/bench/seeded_kill_matrix.h).
#include "dlfl/lab/bench/seeded_kill_matrix.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>

#include "dlfl/error.h"
#include "dlfl/lab/bench/bug_kill_matrix.h"
#include "dlfl/lab/bench/step_log.h"

namespace dlfl::bench {

namespace fs = std::filesystem;

void add_seeded_kill_matrix(const FaultContext& c, const WorkTree& tree, std::span<const mutate::Mutant* const> members,
                            const Spectrum& spectrum, const std::vector<eval::GroundTruthItem>& faults, FaultRecord& r,
                            const std::function<void(const std::string&)>& log) {
  const fs::path base = tree.build.parent_path();
  const WorkTree plain{base / "mbfl-src", base / "mbfl-build"};
  // The original sources: a copy kept in step with the subject (a fault a killed run left
  // in it is undone here too).
  sync_tree(c.subject->root, plain.source);
  if (!fs::exists(plain.build / "compile_commands.json")) {
    FaultContext configure = c;
    configure.vars["cflags"] = c.subject->extra_cflags;
    configure.vars["ldflags"] = "";
    configure.build_env.push_back("CMAKE_EXPORT_COMPILE_COMMANDS=ON");
    const CommandOutcome configured = run_tree_command(configure, plain, c.subject->configure, c.test_jobs, c.interrupt);
    if (c.interrupt && c.interrupt->load()) throw Error("interrupted");
    if (!configured.ok)
      return no_kill_matrix(r, "configuring the original sources for their compilation database: " +
                                   failure_summary(configured), log);
  }

  BugKillMatrixRun run;
  run.source = plain.source;
  run.compile_database = plain.build;
  run.out = base / "kill-matrix";
  run.owner = r.key();
  run.other_lines = true;
  try {
    set_recipe_schemata(c, c.vars, tree.build, run);
  } catch (const Error& e) {
    return no_kill_matrix(r, e.what(), log);
  }
  // The fault, in the copy's files for the step's length.
  std::map<std::string, std::string> texts;
  for (const mutate::Mutant* m : members) {
    auto [it, fresh] = texts.try_emplace(m->file);
    if (fresh) it->second = read_text(plain.source / m->file);
    it->second = mutate::apply_mutant(it->second, *m);
  }
  std::vector<std::unique_ptr<SeededFile>> seeded;
  for (const auto& [path, text] : texts) seeded.push_back(std::make_unique<SeededFile>(plain.source / path, text));
  add_kill_matrix(c, run, spectrum, faults, r, log);
  for (auto& file : seeded) file->restore();
}

}  // namespace dlfl::bench
