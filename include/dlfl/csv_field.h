// RFC 4180 field quoting, shared by every CSV writer (rankings, evaluation and comparison
// tables, the bench's per-bug table, Matrix Market sidecars).
#pragma once

#include <string>
#include <string_view>

namespace dlfl {

// Appends `field` to `out`: as is, or in double quotes with each `"` doubled when it holds
// a separator, a quote or a line break. `Out` is anything with push_back(char) and
// append(const char*, const char*) (std::string, fmt::memory_buffer).
template <class Out>
void append_csv_field(Out& out, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out.append(field.data(), field.data() + field.size());
    return;
  }
  out.push_back('"');
  for (const char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

// The field as a string, quoted as append_csv_field does.
inline std::string csv_field(std::string_view field) {
  std::string out;
  append_csv_field(out, field);
  return out;
}

}  // namespace dlfl
