// lcov tracefiles (per-test line counts from llvm-cov) and llvm-cov's JSON export (the
// function extents, read once per run).
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <simdjson.h>

#include "coverage_count.h"
#include "dlfl/collect/coverage_formats.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

namespace od = simdjson::ondemand;

template <class T>
bool parse_number(std::string_view text, T& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// llvm-cov names a function with internal linkage after its file: `file.cpp:_ZL3fooi`, and
// a C `static` one `main.c:run_line`. Neither a mangled nor a C name holds ':', so the
// prefix is whatever precedes the last single ':' (a demangled `a::b` from another tool
// keeps its name). Without this, gcov's `run_line` and llvm's `main.c:run_line` would be
// two names for one function (call-graph joins, function-level ranks).
std::string function_name(std::string_view raw) {
  const auto colon = raw.rfind(':');
  if (colon != std::string_view::npos && colon > 0 && raw[colon - 1] != ':' && colon + 1 < raw.size())
    raw.remove_prefix(colon + 1);
  return demangle(raw);
}

// Clang outlines the body of an OpenMP region into a function of its own
// (`.omp_outlined.`, `.omp_task_entry.`), whose lines lie inside the function holding the
// pragma and would be named after the outlined one as the innermost function. No source
// function's name starts with '.'; such lines belong to the function around them, the one
// a fix names.
bool compiler_outlined(std::string_view name) { return name.starts_with('.'); }

}  // namespace

void parse_lcov(std::string_view text, const std::string& origin, CoverageReport& report) {
  FileCoverage* file = nullptr;
  std::size_t pos = 0, number = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("DA:")) {
      if (!file) throw Error(origin, number, "DA record outside of a file (no SF: before it)");
      const auto body = line.substr(3);
      const auto comma = body.find(',');
      if (comma == std::string_view::npos) throw Error(origin, number, fmt::format("malformed DA record '{}'", line));
      auto count_text = body.substr(comma + 1);
      count_text = count_text.substr(0, count_text.find(','));  // drop the optional checksum
      LineCount lc;
      double as_double = 0;
      if (!parse_number(body.substr(0, comma), lc.line))
        throw Error(origin, number, fmt::format("malformed DA record '{}'", line));
      if (!parse_number(count_text, lc.count)) {
        // Other tools print huge counts in floating point, or negative after an overflow.
        if (!parse_number(count_text, as_double) || std::isnan(as_double))
          throw Error(origin, number, fmt::format("malformed DA record '{}'", line));
        lc.count = saturated_count(as_double);
      }
      file->lines.push_back(lc);
    } else if (line.starts_with("SF:")) {
      if (line.size() == 3) throw Error(origin, number, "SF record without a file name");
      report.files.emplace_back();
      file = &report.files.back();
      file->path = std::string(line.substr(3));
    } else if (line.starts_with("FN:")) {
      if (!file) throw Error(origin, number, "FN record outside of a file (no SF: before it)");
      const auto body = line.substr(3);
      const auto comma = body.find(',');
      std::uint32_t first = 0;
      // lcov 2 writes FN:FIRST,LAST,NAME; lcov 1 and llvm-cov FN:FIRST,NAME.
      if (comma == std::string_view::npos || !parse_number(body.substr(0, comma), first)) continue;
      auto rest = body.substr(comma + 1);
      std::uint32_t last = first;
      if (const auto c2 = rest.find(','); c2 != std::string_view::npos && parse_number(rest.substr(0, c2), last))
        rest.remove_prefix(c2 + 1);
      std::string name = function_name(rest);
      if (!compiler_outlined(name)) file->functions.push_back({std::move(name), first, std::max(first, last)});
    } else if (line == "end_of_record") {
      file = nullptr;
    }
  }
}

void parse_llvm_export_functions(std::string_view json, const std::string& origin, CoverageReport& report) {
  const simdjson::padded_string padded(json);
  od::parser parser;
  std::map<std::string, std::size_t, std::less<>> file_index;  // path → report.files slot
  try {
    od::document doc = parser.iterate(padded);
    for (od::value export_data : doc["data"].get_array()) {
      for (auto field : export_data.get_object()) {
        if (std::string_view(field.unescaped_key()) != "functions") continue;
        for (od::value function : field.value().get_array()) {
          std::string name;
          std::string file;
          std::uint32_t first = UINT32_MAX, last = 0;
          for (auto f : function.get_object()) {
            const std::string_view key = f.unescaped_key();
            if (key == "name") {
              name = function_name(f.value().get_string());
            } else if (key == "filenames") {
              for (auto path : f.value().get_array()) {
                file = std::string_view(path.get_string());
                break;  // fileID 0: the function's own file
              }
            } else if (key == "regions") {
              // [lineStart, colStart, lineEnd, colEnd, count, fileID, expandedFileID, kind]
              for (od::value region : f.value().get_array()) {
                std::uint64_t v[8] = {};
                std::size_t i = 0;
                for (auto x : region.get_array()) {
                  if (i < 8) v[i] = x.get_uint64();
                  ++i;
                }
                // Code (0) and gap (3) regions of the function's own file; expansions
                // (1) point elsewhere and skipped regions (2) are preprocessed-out text.
                if (i < 8 || v[5] != 0 || (v[7] != 0 && v[7] != 3)) continue;
                first = std::min<std::uint64_t>(first, v[0]);
                last = std::max<std::uint64_t>(last, v[2]);
              }
            }
          }
          if (file.empty() || first == UINT32_MAX || name.empty() || compiler_outlined(name)) continue;
          auto it = file_index.find(file);
          if (it == file_index.end()) {
            it = file_index.emplace(file, report.files.size()).first;
            report.files.emplace_back();
            report.files.back().path = file;
          }
          report.files[it->second].functions.push_back({std::move(name), first, std::max(first, last)});
        }
      }
    }
  } catch (const simdjson::simdjson_error& e) {
    throw Error(origin, 0, fmt::format("malformed llvm-cov JSON export: {}", e.what()));
  }
}

}  // namespace dlfl::collect
