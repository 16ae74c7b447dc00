// make_shards: splits a native spectrum into N shard files by test (test t goes to shard
// t mod N, as GoogleTest's sharding deals them), each with every element, for the merge
// benchmark (benchmarks/merge.sh). Usage: make_shards SPECTRUM.dlfl N OUT_DIR
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "dlfl/formats/native_format.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: make_shards SPECTRUM.dlfl N OUT_DIR\n";
    return 2;
  }
  const dlfl::Spectrum s = dlfl::io::read_native(argv[1], {.verify_checksum = false});
  const std::size_t n = std::stoull(argv[2]);
  const std::filesystem::path dir = argv[3];
  std::filesystem::create_directories(dir);
  if (s.coverage().is_dense()) {
    std::cerr << "make_shards: a sparse spectrum is expected\n";
    return 2;
  }
  for (std::size_t shard = 0; shard < n; ++shard) {
    std::vector<dlfl::TestCase> tests;
    for (std::size_t t = shard; t < s.test_count(); t += n) tests.push_back(s.tests()[t]);
    std::vector<std::uint64_t> offsets{0};
    offsets.reserve(s.element_count() + 1);
    std::vector<std::uint32_t> ids;
    ids.reserve(s.coverage().nnz() / n + s.element_count());
    for (std::size_t e = 0; e < s.element_count(); ++e) {
      for (const auto t : s.coverage().sparse_tests_of(e))
        if (t % n == shard) ids.push_back(static_cast<std::uint32_t>(t / n));
      offsets.push_back(ids.size());
    }
    dlfl::Spectrum part(s.strings(), std::vector<dlfl::ElementRecord>(s.elements().begin(), s.elements().end()),
                        std::move(tests), dlfl::Coverage(s.test_count() / n + (shard < s.test_count() % n), std::move(offsets),
                                                         std::move(ids), /*validate=*/false));
    dlfl::io::write_native(part, dir / ("shard-" + std::to_string(shard) + ".dlfl"));
  }
  std::cout << "wrote " << n << " shards of " << argv[1] << " to " << dir.string() << "\n";
  return 0;
}
