// A BugsC++ defect through `dlfl bugset reproduce` (the bug has eval::BugsCppDefect data):
// natively, without BugsC++'s container. In a git work tree of the user's clone, the fix
// commit with the defect's common (+ split) and buggy patches applied (`git apply`) and
// its extra files copied in is built with the defect's build-coverage commands; every case
// 1..num_cases runs alone (its index in DPP_TEST_INDEX in the tree's root, then the
// test-coverage commands, or the defect's own extra test commands for its last cases) with
// per-case gcov. The failing cases must be exactly those meta.json lists; the fixed
// version (common + split + fixed patches) must pass them. The passing cases and the
// fail-to-pass ones make the spectrum, ranked by each formula and evaluated against the
// buggy patch's lines in native files outside the tests.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "dlfl/lab/bench/bug_reproduction.h"

namespace dlfl::bench {

// The clone of a BugsC++ project under `repos`: repos/PROJECT (the taxonomy folder's
// name), else where GitClone::find looks for the repository its URL names (the URL's last
// two path components as owner+repo); either must have no remote or one naming that
// repository. Throws dlfl::Error as GitClone::find does.
GitClone find_bugscpp_clone(const std::filesystem::path& repos, const eval::BugReport& bug);

// Reproduces plan.bug (which must have bugscpp data) in `tree` as described above. The
// builds run in the tree's root (BugsC++'s commands build in place) with `context`'s build
// environment and the recipe's build timeout; the cases one at a time (they share the
// DPP_TEST_INDEX file) under the recipe's test and fault timeouts; scripts and scratch
// files go to tree.build's parent. Discards: "no C/C++ change", "checkout failed" (a
// patch does not apply, an extra file cannot be written), "build failed", "timeout",
// "tests fail to run", "failing cases differ" (the buggy version's failing cases are not
// meta.json's; the detail says which differ), "no fail-to-pass test" (no listed case
// passes on the fixed version). With context.kill_matrix set, a kept defect's buggy
// version is prepared again and built without coverage under bear (its compilation
// database, and the plain build's time), and kill-matrix builds its schemata copy and runs
// its cases with BugsC++'s commands without coverage (add_kill_matrix); r.mbfl says why
// when it could not. Throws dlfl::Error as reproduce_bug does.
// A manifest is data: the BugsC++ defects among `bugs` (those with bugscpp data) get
// their commands, patches and files from the BugsC++ checkout the user names (`checkout`,
// read as eval::import_bugscpp reads it), never from the manifest; each manifest copy must
// equal the checkout's defect of the same id. Throws dlfl::Error naming the bug when one
// is a BugsC++ defect and `checkout` is empty, when the checkout lacks it, or when the two
// differ (a manifest imported from another checkout, or edited); import_bugscpp's errors
// for a broken checkout. Nothing has run when it throws.
void take_bugscpp_defects_from_checkout(const std::vector<eval::BugReport*>& bugs,
                                        const std::filesystem::path& checkout,
                                        const std::filesystem::path& manifest);

FaultRecord reproduce_bugscpp_bug(const FaultContext& context, const WorkTree& tree, const BugPlan& plan,
                                  const std::function<void(const std::string&)>& log);

}  // namespace dlfl::bench
