// Probe maps (`dlfl instrument`'s dlfl-probes.map), then the runtime spectrum builder
// that sizes its tables from them (issue #14: a declared count of 4294967295 probes),
// fed one failing test that reached every site's probe and one past the last probe id,
// and the spectrum it builds run through rank and convert.
#include "dlfl/probe_map/probe_map.h"
#include "fuzz_support.h"
#include "runtime_spectrum.h"
#include "spectrum_exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto path = write_file("probes.map", {reinterpret_cast<const char*>(data), size});
  expect_value_or_error([&] {
    const auto map = dlfl::instrument::read_probe_map(path);
    dlfl::collect::RuntimeSpectrumBuilder builder(map, false, std::nullopt);
    dlfl::collect::RuntimeTestRecord rec;
    rec.test = dlfl::TestCase::fail("T");
    for (const auto& s : map.sites) rec.probes.push_back(s.probe);
    rec.probes.push_back(map.probe_count);
    builder.add(std::move(rec));
    dlfl::collect::CollectResult result;
    builder.finish(result);
    exercise_spectrum(result.spectrum);
  });
  return 0;
}
