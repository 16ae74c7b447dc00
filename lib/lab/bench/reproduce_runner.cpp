// The driver of `dlfl bugset reproduce` (include/dlfl/lab/bench/reproduce_runner.h).
#include "dlfl/lab/bench/reproduce_runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <xxhash.h>

#include "dlfl/collect/shell_quoting.h"
#include "dlfl/lab/bench/bug_reproduction.h"
#include "dlfl/lab/bench/bugscpp_reproduction.h"
#include "dlfl/lab/bench/host_cpu.h"
#include "dlfl/lab/bench/results_store.h"
#include "dlfl/lab/bench/run_directory.h"
#include "dlfl/lab/bench/shard_join.h"  // shard_name
#include "dlfl/lab/bench/subject.h"
#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/error.h"
#include "dlfl/files/tree_removal.h"
#include "dlfl/lab/eval/bugset_manifest.h"
#include "dlfl/lab/eval/bugset_names.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

std::vector<const eval::BugReport*> select_bugs(const std::vector<eval::BugReport>& bugs, const ReproduceOptions& o) {
  std::vector<const eval::BugReport*> selected;
  if (!o.bug_ids.empty()) {
    std::set<std::string> seen;
    for (const auto& id : o.bug_ids) {
      const eval::BugReport* bug = eval::find_bug(bugs, id);
      if (!bug) throw Error(o.manifest.string(), 0, "no bug \"" + id + "\" in this manifest");
      if (seen.insert(id).second) selected.push_back(bug);
    }
  } else {
    for (const auto& bug : bugs)
      if (bug.project == o.project) selected.push_back(&bug);
    if (selected.empty()) throw Error(o.manifest.string(), 0, "no bug of project \"" + o.project + "\" in this manifest");
  }
  // One project after another: a worker's next bug then reuses its warm work tree.
  std::stable_sort(selected.begin(), selected.end(),
                   [](const auto* a, const auto* b) { return a->project < b->project; });
  return selected;
}

// What results in one output directory share. Recipes are per project (or bug) and may change
// between runs (each record names the recipe it ran under: recipe_json, OUT/recipes/).
nlohmann::json fingerprint(const ReproduceOptions& o) {
  nlohmann::json j = {
      {"manifest", fs::absolute(o.manifest).lexically_normal().string()}, {"formulas", o.formulas}, {"top_n", o.top_n}};
  if (o.shard) j["shard"] = shard_name(*o.shard);  // only then: unsharded directories keep their fingerprint
  // Only with mutation analysis, for the same reason.
  if (!o.kill_matrix.command.empty()) {
    j["mbfl"] = {{"budget", o.kill_matrix.budget}, {"per_line", o.kill_matrix.per_line}};
    // Other operators make other mutants; batches judge failure messages otherwise.
    if (!o.kill_matrix.operators.empty()) j["mbfl"]["operators"] = o.kill_matrix.operators;
    if (o.kill_matrix.pytest_batch) j["mbfl"]["pytest_batch"] = o.kill_matrix.pytest_batch;
  }
  return j;
}

nlohmann::json recipe_json(const Subject& recipe) {
  nlohmann::json j = {{"configure", recipe.configure},
                      {"build", recipe.build},
                      {"test_binary", recipe.test_binary},
                      {"test_filter", recipe.test_filter},
                      {"backend", std::string(to_string(recipe.backend))},
                      {"url_map", recipe.url_map},
                      {"cmake_args", recipe.cmake_args},
                      {"cflags", recipe.extra_cflags},
                      {"timeouts",
                       {{"build", recipe.build_timeout.count()},
                        {"test", recipe.test_timeout.count()},
                        {"fault", recipe.fault_timeout.count()}}}};
  // Only where a recipe uses them: every other recipe keeps the digest the curated
  // lists record.
  if (!recipe.test_command.empty()) {
    j["test_list"] = recipe.test_list;
    j["test_command"] = recipe.test_command;
  }
  if (recipe.submodules) j["submodules"] = *recipe.submodules;
  if (!recipe.prepare.empty()) j["prepare"] = recipe.prepare;
  return j;
}

std::string digest_of(std::string_view text) { return fmt::format("{:016x}", XXH3_64bits(text.data(), text.size())); }

// One recipe (a project's, or a single bug's) and the context its bugs run in.
struct RecipeSetup {
  Subject recipe;
  std::string recipe_text;    // recipe_json, as stored in OUT/recipes/
  std::string recipe_digest;  // of recipe_text: each record's `recipe`
  FaultContext context;
};

// The work trees handed out to workers, removed (with their registrations in the
// clones) when the run ends, however it ends.
class WorkTrees {
 public:
  explicit WorkTrees(fs::path dir) : dir_(std::move(dir)) {}
  ~WorkTrees() {
    for (const auto& [path, clone] : registered_) clone->remove_worktree(path);
  }
  WorkTrees(const WorkTrees&) = delete;
  WorkTrees& operator=(const WorkTrees&) = delete;

  WorkTree for_worker(unsigned worker, const std::string& project, const GitClone& clone) {
    // The project name is a directory here and in the commands run in it.
    if (!eval::is_valid_project_name(project)) throw Error("\"" + project.substr(0, 80) + "\" is not a project name");
    const fs::path base = dir_ / project / ("worker" + std::to_string(worker));
    const std::lock_guard lock(mutex_);
    registered_.emplace(base / "src", &clone);
    return {base / "src", base / "build"};
  }

 private:
  fs::path dir_;
  std::mutex mutex_;
  std::map<fs::path, const GitClone*> registered_;
};

}  // namespace

ReproduceResult reproduce_bugs(const ReproduceOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  auto interrupted = [&] { return o.interrupt && o.interrupt->load(); };
  auto log = [&](std::string_view line) {
    if (o.progress) o.progress->note(line);
    else if (o.log) o.log(line);
  };

  // Everything is checked before anything is written or checked out.
  std::vector<eval::BugReport> bugs = eval::read_manifest(o.manifest);
  std::vector<const eval::BugReport*> selected = select_bugs(bugs, o);
  {
    // The selected bugs are `bugs`' own elements: their BugsC++ data is replaced in place.
    std::vector<eval::BugReport*> writable;
    for (const auto* bug : selected) writable.push_back(&bugs[static_cast<std::size_t>(bug - bugs.data())]);
    take_bugscpp_defects_from_checkout(writable, o.bugscpp, o.manifest);
  }
  std::vector<Formula> formulas;
  for (const auto& name : o.formulas) formulas.push_back(make_formula(name));
  // A bug's own recipe (--recipe BUG=FILE) comes before its project's.
  const auto recipe_key = [&](const eval::BugReport& bug) {
    return o.project_recipes.contains(bug.id) ? bug.id : bug.project;
  };
  std::map<std::string, RecipeSetup> setups;  // by recipe_key
  for (const auto& recipe : o.project_recipes) {
    const std::string& key = recipe.first;  // a named copy: lambdas cannot capture bindings (C++20, clang 14)
    if (std::none_of(selected.begin(), selected.end(), [&](const auto* b) { return b->project == key || b->id == key; }))
      throw Error(recipe.second.string(), 0,
                  "--recipe " + key + "=...: " +
                      (key.find('#') != std::string::npos ? "no selected bug is " : "no selected bug is of project ") + key);
  }
  // After the recipes' check: a project's recipe is no error in a shard that got none of its bugs.
  if (o.shard)
    std::erase_if(selected, [&](const auto* bug) { return !collect::name_shard_holds(*o.shard, bug->id); });
  for (const auto* bug : selected) {
    const std::string key = recipe_key(*bug);
    if (setups.contains(key)) continue;
    RecipeSetup& setup = setups[key];
    const auto own = o.project_recipes.find(key);
    const fs::path file = own != o.project_recipes.end() ? own->second : o.recipe;
    setup.recipe = file.empty() ? generic_recipe() : read_recipe(file);
    if (setup.recipe.backend == Backend::runtime && o.instrument_command.empty())
      throw Error(setup.recipe.file.string(), 0, "the runtime backend needs `dlfl instrument` (run it through the dlfl CLI)");
    // The digest sees {repos} as written: one recipe, one digest, wherever the clones are.
    setup.recipe_text = recipe_json(setup.recipe).dump(2) + "\n";
    setup.recipe_digest = digest_of(setup.recipe_text);
    resolve_repos_placeholder(setup.recipe, o.repos);
    FaultContext& context = setup.context;
    context.formulas = formulas;
    context.top_n = o.top_n;
    context.test_filter = setup.recipe.test_filter;
    context.interrupt = o.interrupt;
    context.crash_dump_library = o.crash_dump_library;
    context.kill_matrix = o.kill_matrix;
  }
  std::map<std::string, std::unique_ptr<GitClone>> clones;
  std::vector<BugPlan> plans;
  const std::string host = host_cpu();
  for (const auto* bug : selected) {
    auto& clone = clones[bug->project];
    if (!clone) {
      clone = std::make_unique<GitClone>(bug->bugscpp ? find_bugscpp_clone(o.repos, *bug)
                                                      : GitClone::find(o.repos, bug->project));
      if (!clone->remote_warning().empty() && o.warn) o.warn(clone->remote_warning());
    }
    BugPlan plan;
    plan.bug = bug;
    plan.clone = clone.get();
    const auto fix = clone->resolve(bug->fix_commit);
    if (!fix)
      throw Error(clone->dir().string(), 0,
                  "the fix " + (bug->fix_commit.empty() ? std::string("(none recorded)") : bug->fix_commit) +
                      " of bug " + bug->id + " is not in this clone (fetch it; or is this not " + bug->project +
                      "'s repository?)");
    plan.fix = *fix;
    plan.parent = clone->parent(*fix).value_or("");
    plan.candidacy = eval::bug_candidacy(*bug);
    plan.recipe_digest = setups.at(recipe_key(*bug)).recipe_digest;
    plan.host = host;
    plan.log_dir = o.out_dir / "logs" / bug->id;  // a valid id is one directory name
    plan.spectrum_dir = o.out_dir / "spectra";
    plans.push_back(std::move(plan));
  }

  // Outputs or work trees inside a clone would show up in its `git status`.
  const fs::path work = fs::weakly_canonical(fs::absolute(o.work_dir.empty() ? o.out_dir / "work" : o.work_dir));
  for (const auto& [project, clone] : clones) {
    const fs::path root = fs::weakly_canonical(clone->dir());
    for (const fs::path& dir : {fs::weakly_canonical(fs::absolute(o.out_dir)), work}) {
      const auto [r, d] = std::mismatch(root.begin(), root.end(), dir.begin(), dir.end());
      if (r == root.end())
        throw Error(dir.string(), 0,
                    "is inside the clone " + root.string() + ": choose an output/work directory outside it (-o, --work)");
    }
  }

  fs::create_directories(o.out_dir);
  check_run_configuration(o.out_dir / std::string(kReproduceConfigFileName), fingerprint(o).dump(),
                          "reproduction configuration (manifest, formulas, top N or --mbfl differ)");
  ResultsStore store(o.out_dir / std::string(kResultsFileName));
  if (o.shard) {
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& plan : plans) listed.push_back({{"id", plan.bug->id}, {"key", describe_bug(plan).key()}});
    write_text(o.out_dir / std::string(kShardFileName),
               nlohmann::json{{"shard", shard_name(*o.shard)}, {"bugs", listed}}.dump(2) + "\n");
  }
  for (const auto& [key, setup] : setups) {
    const fs::path stored = o.out_dir / "recipes" / (key + "-" + setup.recipe_digest + ".json");
    if (!fs::exists(stored)) {
      fs::create_directories(stored.parent_path());
      write_text(stored, setup.recipe_text);
    }
  }

  ReproduceResult result;
  result.selected = plans.size();
  std::vector<BugPlan*> items;
  std::map<std::string, std::size_t> other_recipe;  // project -> finished bugs of another recipe
  for (auto& plan : plans) {
    const FaultRecord* earlier = store.find(describe_bug(plan).key());
    if (earlier && earlier->recipe != plan.recipe_digest) ++other_recipe[plan.bug->project];
    if (earlier && (earlier->kept || !o.retry_discarded)) {
      ++result.resumed;
      continue;
    }
    if (earlier) {
      plan.attempt = earlier->attempt + 1;
      ++result.retried;
    }
    items.push_back(&plan);
  }
  for (const auto& [project, count] : other_recipe)
    log(project + ": " + std::to_string(count) + " finished bugs ran under another recipe (" +
        (o.out_dir / "recipes").string() + "); they keep their results" +
        (o.retry_discarded ? "; discarded ones run again under this one" : " (--retry-discarded reruns the discarded ones)"));
  const std::size_t planned = o.limit ? std::min(o.limit, items.size()) : items.size();
  const unsigned jobs = std::max(1u, o.jobs);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  for (auto& [key, setup] : setups) {
    FaultContext& context = setup.context;
    context.subject = &setup.recipe;
    context.test_jobs = o.build_jobs ? o.build_jobs : std::max(1u, cores / jobs);
    context.vars["launcher"] =
        ccache_on_path() ? "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache" : "";
    context.build_env = {"CCACHE_BASEDIR=" + work.string()};
    // kill-matrix parses the buggy version with the build's compilation database, which
    // CMake (3.17 on) writes for any configure command when this is in its environment.
    if (!o.kill_matrix.command.empty()) context.build_env.push_back("CMAKE_EXPORT_COMPILE_COMMANDS=ON");
    switch (setup.recipe.backend) {
      case Backend::gcov: context.vars["cflags"] = context.vars["ldflags"] = "--coverage"; break;
      case Backend::llvm:
        context.vars["cflags"] = context.vars["ldflags"] = "-fprofile-instr-generate -fcoverage-mapping";
        break;
      case Backend::runtime:
        context.vars["cflags"] = o.runtime_cflags;
        context.vars["ldflags"] = setup.recipe.test_binary.empty() ? o.runtime_ldflags : o.runtime_gtest_ldflags;
        if (!setup.recipe.test_binary.empty() && !o.runtime_gtest_cmake_args.empty() &&
            setup.recipe.configure.find("{cmake_args}") != std::string::npos) {
          // A project's own GoogleTest may be older than the prebuilt listener's.
          context.vars["ldflags"] = o.runtime_ldflags;
          for (const auto& arg : o.runtime_gtest_cmake_args)
            context.runtime_cmake_args += (context.runtime_cmake_args.empty() ? "" : " ") + collect::shell_quote(arg);
        }
        context.instrument_command = o.instrument_command;
        break;
    }
    apply_build_habits(context);
  }

  std::exception_ptr error;
  {
    WorkTrees trees(work);
    error = run_reported_workers(
        jobs, planned, o.progress,
        [&](unsigned k, std::size_t i) {
          const BugPlan& plan = *items[i];
          const FaultContext& context = setups.at(recipe_key(*plan.bug)).context;
          const WorkTree tree = trees.for_worker(k, plan.bug->project, *plan.clone);
          FaultRecord record;
          if (plan.parent.empty() && !plan.bug->bugscpp) {  // BugsC++ patches the fix itself
            record = describe_bug(plan);
            record.reason = "checkout failed";
            record.detail = "the fix " + plan.fix.substr(0, 12) + " has no parent commit";
          } else {
            record = reproduce_bug(context, tree, plan, [&](const std::string& line) { log(line); });
          }
          store_finished(store, o.progress, record);
        },
        o.interrupt);  // rethrown once the outputs are written
  }

  result.interrupted = interrupted();
  result.records = store.records();
  std::size_t done = 0;
  for (const auto& plan : plans) {
    const FaultRecord* stored = store.find(describe_bug(plan).key());
    done += stored && stored->attempt >= plan.attempt;
  }
  result.pending = plans.size() - done;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_run_outputs(o.out_dir, result.records,
                    {.top_n = o.top_n, .wall_seconds = result.seconds, .real_bugs = true});
  if (error) std::rethrow_exception(error);
  // Finished: the builds are of no further use (real projects' take gigabytes). OUT/work
  // is removed as the name it has, never as where a link there leads (`work` above is
  // resolved): a link is the user's scratch disk or a planted trap, and stays.
  if (result.pending == 0 && o.work_dir.empty()) {
    std::error_code ec;
    const fs::path named = fs::absolute(o.out_dir) / "work";
    if (io::remove_tree(named, ec) == io::TreeRemoval::link)
      log(named.string() + " is a symbolic link: the work trees it leads to are left in place");
  }
  return result;
}

}  // namespace dlfl::bench
