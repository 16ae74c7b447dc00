// The runtime's failure messages file (dlfl_rt_messages.h), read at once and read in parts
// while "the listener appends" (RuntimeMessagesReader): the input's first four bytes are
// two cut offsets (little-endian u16, taken modulo the file's size + 1), the rest is the
// file. It is written up to the first cut and read, appended up to the second and read,
// then completed and read. Both ways must give the same messages, or both throw dlfl::Error.
#include <algorithm>
#include <fstream>
#include <optional>
#include <string>

#include "dlfl/collect/runtime_messages.h"
#include "fuzz_support.h"

namespace {

void append(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::app).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  if (size < 4) return 0;
  const std::string_view file(reinterpret_cast<const char*>(data) + 4, size - 4);
  std::size_t cuts[2] = {(data[0] | data[1] << 8) % (file.size() + 1), (data[2] | data[3] << 8) % (file.size() + 1)};
  std::sort(cuts, cuts + 2);

  std::optional<dlfl::collect::RuntimeMessages> whole;
  expect_value_or_error([&] { whole = dlfl::collect::read_runtime_messages(write_file("whole.messages", file)); });

  const auto path = write_file("parts.messages", file.substr(0, cuts[0]));
  dlfl::collect::RuntimeMessagesReader reader;
  dlfl::collect::RuntimeMessages parts;
  bool threw = false;
  try {
    reader.read_more(path, parts);
    append(path, file.substr(cuts[0], cuts[1] - cuts[0]));
    reader.read_more(path, parts);
    append(path, file.substr(cuts[1]));
    reader.read_more(path, parts);
  } catch (const dlfl::Error&) {
    threw = true;
  }
  if (threw != !whole.has_value() || (whole && *whole != parts)) __builtin_trap();
  return 0;
}
