// The runtime backend: one process (or several) per test, each writing DIR/rt.PID as the
// whole-process test DLFL_RT_TEST (dlfl_rt.h); read back as probe map elements.
#include <fmt/format.h>

#include <algorithm>

#include "dlfl/collect/coverage_backend.h"
#include "dlfl/collect/runtime_snapshot.h"
#include "dlfl/error.h"
#include "dlfl/probe_map/probe_map.h"
#include "runtime_spectrum.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSnapshotPrefix = "rt";

class RuntimeBackend final : public CoverageBackend {
 public:
  RuntimeBackend(fs::path map_path, instrument::ProbeMap map, const std::optional<PathFilterOptions>& paths)
      : map_path_(std::move(map_path)), map_id_(map.id), probe_count_(map.probe_count),
        elements_(map, false, paths) {}

  CoverageKind kind() const noexcept override { return CoverageKind::runtime; }
  bool keeps_coverage_of_killed_tests() const noexcept override { return true; }
  std::string description() const override {
    return fmt::format("dlfl runtime, probe map {} ({} probes)", map_path_.string(), probe_count_);
  }

  std::vector<std::string> environment(const fs::path& dir, const std::string& test) const override {
    return {"DLFL_RT_FILE=" + (dir / kSnapshotPrefix).string(), "DLFL_RT_TEST=" + test};
  }

  std::optional<CoverageReport> read(const fs::path&, const std::string&, const std::atomic<bool>*) const override {
    return std::nullopt;  // read_elements() instead
  }

  bool add_known_elements(SpectrumBuilder& builder) const override {
    elements_.add_to(builder);
    return true;
  }

  std::optional<std::vector<std::uint32_t>> read_elements(const fs::path& dir, const std::string& test,
                                                          std::vector<std::string>& extrinsic) const override {
    std::vector<fs::path> files;
    std::error_code ec;
    const std::string prefix = std::string(kSnapshotPrefix) + ".";
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().filename().string().rfind(prefix, 0) == 0) files.push_back(entry.path());
    if (ec) throw Error(dir.string(), 0, fmt::format("test {}: cannot list its snapshot files: {}", test, ec.message()));
    if (files.empty()) return std::nullopt;
    std::sort(files.begin(), files.end());
    // The reached ids, sorted and unique at the end: work follows the ids the snapshots
    // hold, not the probe count the map declares.
    std::vector<std::uint32_t> probes;
    for (const auto& file : files) {
      RuntimeSnapshot snap;
      try {
        snap = read_runtime_snapshot(file, [&](const RuntimeSnapshot&, RuntimeSlot&& slot) {
          probes.insert(probes.end(), slot.probes.begin(), slot.probes.end());
        });
      } catch (const Error& e) {
        throw Error(fmt::format("test {}: {}", test, e.message()));
      }
      // Id 0 is "unknown" on either side (hand-written maps, runtimes fed by other tools).
      if (snap.map_id && map_id_ && snap.map_id != map_id_)
        throw Error(fmt::format("test {} ran a program instrumented with another probe map than {} (the ids differ): "
                                "give the dlfl-probes.map of the `dlfl instrument` tree it was built from",
                                test, map_path_.string()));
      if (snap.probe_count > probe_count_)
        throw Error(fmt::format("test {} ran a program with {} probes, more than the {} of the probe map {}", test,
                                snap.probe_count, probe_count_, map_path_.string()));
      probes.insert(probes.end(), snap.outside.begin(), snap.outside.end());
      // mpirun -np N: each rank wrote its own file; the test ran on every rank it names.
      if (snap.mpi_rank) extrinsic.push_back("rank=" + std::to_string(*snap.mpi_rank));
    }
    std::sort(probes.begin(), probes.end());
    probes.erase(std::unique(probes.begin(), probes.end()), probes.end());
    std::vector<std::uint32_t> elements;
    elements_.elements_of(probes, elements);
    std::sort(elements.begin(), elements.end());
    elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
    std::sort(extrinsic.begin(), extrinsic.end());
    extrinsic.erase(std::unique(extrinsic.begin(), extrinsic.end()), extrinsic.end());
    return elements;
  }

 private:
  fs::path map_path_;
  std::uint64_t map_id_;
  std::uint32_t probe_count_;
  ProbeElements elements_;
};

}  // namespace

std::unique_ptr<CoverageBackend> make_runtime_backend(const fs::path& probe_map,
                                                      const std::optional<PathFilterOptions>& paths) {
  instrument::ProbeMap map = instrument::read_probe_map(probe_map);
  return std::make_unique<RuntimeBackend>(probe_map, std::move(map), paths);
}

}  // namespace dlfl::collect
