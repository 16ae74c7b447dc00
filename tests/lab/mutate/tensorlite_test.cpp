// dlfl mutate on tensorlite (examples/tensorlite), the bundled DL subject: every bug type
// shows up, the seeded faults of faults/faults.json are among the mutants, and a
// stratified sample of mutants applies and compiles. Runs on a copy of the sources.
#include "dlfl/lab/mutate/sampling.h"
#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

const fs::path kTensorlite = fs::path(DLFL_SOURCE_DIR) / "examples" / "tensorlite";

class Tensorlite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists(kTensorlite / "src") || !fs::exists(kTensorlite / "include")) return;
    copy_ = std::make_unique<Project>();
    for (const char* dir : {"include", "src", "cuda"})
      if (fs::exists(kTensorlite / dir)) fs::copy(kTensorlite / dir, copy_->root() / dir, fs::copy_options::recursive);
    nlohmann::json db = nlohmann::json::array();
    for (const char* dir : {"src", "cuda"}) {
      if (!fs::exists(copy_->root() / dir)) continue;
      for (const auto& entry : fs::directory_iterator(copy_->root() / dir)) {
        const auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".cu") continue;
        std::vector<std::string> args = ext == ".cu"
                                            ? std::vector<std::string>{"/usr/local/cuda/bin/nvcc", "-std=c++17"}
                                            : std::vector<std::string>{"g++", "-std=c++20"};
        args.insert(args.end(), {"-I" + (copy_->root() / "include").string(), "-c", entry.path().string()});
        db.push_back({{"directory", copy_->root().string()}, {"file", entry.path().string()}, {"arguments", args}});
      }
    }
    write_text(copy_->build() / "compile_commands.json", db.dump(2));
    MutateOptions o;
    o.build_dir = copy_->build();
    o.root = copy_->root();
    o.files = {"src/**", "cuda/**", "include/**"};
    mutants_ = find_mutants(o);
  }
  static void TearDownTestSuite() { copy_.reset(); }
  void SetUp() override {
    if (!copy_) GTEST_SKIP() << "examples/tensorlite is not there";
  }

  static bool has(const std::string& op, const std::string& file, const std::string& original,
                  const std::string& replacement) {
    return std::any_of(mutants_.begin(), mutants_.end(), [&](const Mutant& m) {
      return m.op == op && m.file == file && m.original == original && m.replacement == replacement;
    });
  }

  static std::unique_ptr<Project> copy_;
  static std::vector<Mutant> mutants_;
};
std::unique_ptr<Project> Tensorlite::copy_;
std::vector<Mutant> Tensorlite::mutants_;

TEST_F(Tensorlite, EveryBugTypeIsRepresented) {
  std::map<BugType, std::size_t> per_type;
  for (const auto& m : mutants_) ++per_type[m.bug_type];
  for (BugType t : {BugType::tensor, BugType::training, BugType::model, BugType::api, BugType::gpu, BugType::numerics,
                    BugType::traditional})
    EXPECT_GT(per_type[t], 0u) << to_string(t);
}

TEST_F(Tensorlite, TheHandWrittenFaultsAreAmongTheMutants) {
  // faults.json: layernorm_eps, grid_ceil_div, init_fan_in (one of its two lines).
  EXPECT_TRUE(has("misplace_epsilon", "src/layernorm.cpp", "std::sqrt(var + eps)", "(std::sqrt(var) + eps)"));
  EXPECT_TRUE(has("ceil_div", "src/launch_geometry.cpp", "(n + block - 1) / block", "n / block"));
  EXPECT_TRUE(has("swap_dims", "src/init.cpp", "1", "0"));
  EXPECT_TRUE(has("remove_syncthreads", "cuda/matmul.cu", "    __syncthreads();\n", ""));
}

TEST_F(Tensorlite, AStratifiedSampleAppliesAndCompiles) {
  const auto sample = stratified_sample(mutants_, 30, 1);
  ASSERT_EQ(sample.size(), 30u);
  for (const auto& m : sample) {
    const std::string text = copy_->patched(m);
    EXPECT_EQ(text, apply_mutant(slurp(copy_->root() / m.file), m)) << m.id;
    const fs::path file = copy_->root() / ".check" / m.file;
    write_text(file, text);
    const bool cuda = file.extension() == ".cu";
    const std::string include =
        " -I " + (copy_->root() / "include").string() + " -I " + (copy_->root() / "src").string() + " ";
    const std::string command = cuda
                                    ? "clang++-14 -x cuda -nocudainc -nocudalib --cuda-gpu-arch=sm_70 --cuda-host-only "
                                      "-Wno-unknown-cuda-version -std=c++17 -fsyntax-only -I " DLFL_CUDA_STUB_DIR +
                                          include + file.string()
                                    : "g++ -std=c++20 -fsyntax-only -x c++" + include + file.string();
    std::string diagnostics;
    EXPECT_EQ(run(command, &diagnostics), 0)
        << m.id << " (" << m.original << " -> " << m.replacement << ") does not compile:\n"
        << diagnostics;
  }
}

}  // namespace
}  // namespace dlfl::mutate::testing
