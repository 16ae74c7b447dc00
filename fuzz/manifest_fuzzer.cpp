// Bug-set manifests (JSON lines, `dlfl bugset import`'s output): third-party data, so
// besides "returns or throws dlfl::Error", every name that is accepted must have the
// shape the reproduction relies on (eval/bugset_names.h), and every file path must stay
// inside a work tree.
#include <cstdlib>
#include <sstream>

#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/lab/eval/bugset_manifest.h"
#include "dlfl/lab/eval/bugset_names.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  namespace fs = std::filesystem;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  expect_value_or_error([&] {
    const auto bugs = dlfl::eval::read_manifest(in, "bugs.jsonl");
    std::ostringstream out;
    dlfl::eval::write_manifest(out, bugs);  // what was read can be written back
    static const fs::path tree = scratch_dir() / "tree";
    for (const auto& bug : bugs) {
      if (!dlfl::eval::is_valid_bug_id(bug.id) || !dlfl::eval::is_valid_project_name(bug.project)) std::abort();
      const fs::path work = (tree / bug.project).lexically_normal();
      if (work.parent_path() != tree) std::abort();  // one directory under the work root
      for (const auto& file : bug.files)
        for (const std::string* name : {&file.old_name, &file.new_name}) {
          if (name->empty()) continue;
          const fs::path path = dlfl::bench::path_inside(tree, *name, "fuzz");  // never throws here
          const fs::path normal = path.lexically_normal();
          const auto [t, p] = std::mismatch(tree.begin(), tree.end(), normal.begin(), normal.end());
          if (t != tree.end() || normal == tree) std::abort();
        }
    }
  });
  return 0;
}
