// Ranking files: dlfl's CSV and JSON, GZoltar's `name;suspiciousness_value`, and the
// format detection. The first byte picks the reader (so every seed reaches every one).
#include "dlfl/formats/ranking_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  using dlfl::io::RankingFileFormat;
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  expect_value_or_error([&] {
    switch (data[0] % 4) {
      case 0: (void)dlfl::io::parse_rankings(text, RankingFileFormat::csv, "r.csv"); break;
      case 1: (void)dlfl::io::parse_rankings(text, RankingFileFormat::json, "r.json"); break;
      case 2: (void)dlfl::io::parse_rankings(text, RankingFileFormat::gzoltar, "r.ranking.csv"); break;
      default: (void)dlfl::io::parse_rankings(text, dlfl::io::detect_ranking_format(text, "r"), "r"); break;
    }
  });
  return 0;
}
