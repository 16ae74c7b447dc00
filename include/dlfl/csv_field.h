// RFC 4180 field quoting, shared by every CSV writer (rankings, evaluation and comparison
// tables, the bench's per-bug table, Matrix Market sidecars), with the usual guard
// against spreadsheet formula injection (OWASP "CSV Injection").
#pragma once

#include <string>
#include <string_view>

namespace dlfl {

namespace detail {

// A plain decimal number ("-0.5", "+3", "1e-9"): read by a spreadsheet as that number.
constexpr bool is_plain_number(std::string_view field) noexcept {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < field.size() && field[i] >= '0' && field[i] <= '9') ++i;
    return i - start;
  };
  if (i < field.size() && (field[i] == '-' || field[i] == '+')) ++i;
  std::size_t mantissa = digits();
  if (i < field.size() && field[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < field.size() && (field[i] == 'e' || field[i] == 'E')) {
    ++i;
    if (i < field.size() && (field[i] == '-' || field[i] == '+')) ++i;
    if (digits() == 0) return false;
  }
  return i == field.size();
}

}  // namespace detail

// True when a spreadsheet would read `field` as a formula (it starts with '=', '+', '-',
// '@', a tab or a carriage return and is not a plain number), or when it starts with the
// guard itself ('), so that a reader can always take one leading ' away.
constexpr bool needs_formula_guard(std::string_view field) noexcept {
  if (field.empty()) return false;
  switch (field.front()) {
    case '\'': return true;
    case '=': case '@': case '\t': case '\r': return true;
    case '+': case '-': return !detail::is_plain_number(field);
    default: return false;
  }
}

// A field as the CSV readers of dlfl's own tables take it: one leading ' (the guard
// append_csv_field adds) removed.
constexpr std::string_view without_formula_guard(std::string_view field) noexcept {
  return !field.empty() && field.front() == '\'' ? field.substr(1) : field;
}

// Appends `field` to `out`: as is, or in double quotes with each `"` doubled when it holds
// a separator, a quote or a line break; a field a spreadsheet would take for a formula
// gets a leading ' first (needs_formula_guard). `Out` is anything with push_back(char)
// and append(const char*, const char*) (std::string, fmt::memory_buffer).
template <class Out>
void append_csv_field(Out& out, std::string_view field) {
  const bool guard = needs_formula_guard(field);
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    if (guard) out.push_back('\'');
    out.append(field.data(), field.data() + field.size());
    return;
  }
  out.push_back('"');
  if (guard) out.push_back('\'');
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
