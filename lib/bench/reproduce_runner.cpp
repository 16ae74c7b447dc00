// The driver of `dlfl bugset reproduce` (include/dlfl/bench/reproduce_runner.h).
#include "dlfl/bench/reproduce_runner.h"

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

#include "dlfl/bench/bug_reproduction.h"
#include "dlfl/bench/results_store.h"
#include "dlfl/bench/run_directory.h"
#include "dlfl/bench/subject.h"
#include "dlfl/error.h"
#include "dlfl/eval/bugset_manifest.h"

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

nlohmann::json fingerprint(const ReproduceOptions& o, const Subject& recipe) {
  return {{"manifest", fs::absolute(o.manifest).lexically_normal().string()},
          {"recipe",
           {{"configure", recipe.configure},
            {"build", recipe.build},
            {"test_binary", recipe.test_binary},
            {"test_filter", recipe.test_filter},
            {"backend", std::string(to_string(recipe.backend))}}},
          {"formulas", o.formulas},
          {"top_n", o.top_n}};
}

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
  const std::vector<eval::BugReport> bugs = eval::read_manifest(o.manifest);
  const std::vector<const eval::BugReport*> selected = select_bugs(bugs, o);
  const Subject recipe = o.recipe.empty() ? generic_recipe() : read_recipe(o.recipe);
  FaultContext context;
  context.subject = &recipe;
  for (const auto& name : o.formulas) context.formulas.push_back(make_formula(name));
  context.top_n = o.top_n;
  context.test_filter = recipe.test_filter;
  context.interrupt = o.interrupt;
  std::map<std::string, std::unique_ptr<GitClone>> clones;
  std::vector<BugPlan> plans;
  for (const auto* bug : selected) {
    auto& clone = clones[bug->project];
    if (!clone) clone = std::make_unique<GitClone>(GitClone::find(o.repos, bug->project));
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
  check_run_configuration(o.out_dir / std::string(kReproduceConfigFileName), fingerprint(o, recipe).dump(),
                          "reproduction configuration (manifest, recipe, formulas or top N differ)");
  ResultsStore store(o.out_dir / std::string(kResultsFileName));

  ReproduceResult result;
  result.selected = plans.size();
  std::vector<const BugPlan*> items;
  for (const auto& plan : plans) {
    if (store.contains(describe_bug(plan).key())) ++result.resumed;
    else items.push_back(&plan);
  }
  const std::size_t planned = o.limit ? std::min(o.limit, items.size()) : items.size();
  const unsigned jobs = std::max(1u, o.jobs);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  context.test_jobs = o.build_jobs ? o.build_jobs : std::max(1u, cores / jobs);
  context.vars["launcher"] = ccache_on_path() ? "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache" : "";
  context.build_env = {"CCACHE_BASEDIR=" + work.string()};
  switch (recipe.backend) {
    case Backend::gcov: context.vars["cflags"] = context.vars["ldflags"] = "--coverage"; break;
    case Backend::llvm:
      context.vars["cflags"] = context.vars["ldflags"] = "-fprofile-instr-generate -fcoverage-mapping";
      break;
    case Backend::runtime:
      throw Error(recipe.file.string(), 0,
                  "the runtime backend is not supported by `bugset reproduce` yet; use \"gcov\" or \"llvm\"");
  }

  std::exception_ptr error;
  {
    WorkTrees trees(work);
    error = run_reported_workers(
        jobs, planned, o.progress,
        [&](unsigned k, std::size_t i) {
          const BugPlan& plan = *items[i];
          const WorkTree tree = trees.for_worker(k, plan.bug->project, *plan.clone);
          FaultRecord record;
          if (plan.parent.empty()) {
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
  for (const auto& plan : plans) done += store.contains(describe_bug(plan).key());
  result.pending = plans.size() - done;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_run_outputs(o.out_dir, result.records,
                    {.top_n = o.top_n, .wall_seconds = result.seconds, .real_bugs = true});
  if (error) std::rethrow_exception(error);
  // Finished: the builds are of no further use (real projects' take gigabytes).
  if (result.pending == 0 && o.work_dir.empty()) {
    std::error_code ec;
    fs::remove_all(work, ec);
  }
  return result;
}

}  // namespace dlfl::bench
