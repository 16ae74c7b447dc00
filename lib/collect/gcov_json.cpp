// gcov's JSON intermediate format (`gcov --json-format --stdout`), read with simdjson
// On-Demand: a test suite's thousands of reports must not be dominated by parsing.
#include <cxxabi.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <simdjson.h>

#include "coverage_count.h"
#include "dlfl/collect/coverage_formats.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

namespace od = simdjson::ondemand;

std::uint32_t to_line(std::int64_t value, const std::string& origin) {
  if (value < 0 || value > static_cast<std::int64_t>(UINT32_MAX))
    throw Error(origin, 0, fmt::format("line number {} out of range", value));
  return static_cast<std::uint32_t>(value);
}

// Counts are integers in gcc 12; gcc 14 (format 2) may print large ones as doubles.
std::uint64_t to_count(od::value value) {
  std::uint64_t count = 0;
  if (!value.get_uint64().get(count)) return count;
  double d = 0;
  if (!value.get_double().get(d)) return saturated_count(d);
  // An integer with more digits than a double takes is still a count > 0.
  std::string_view raw = value.raw_json_token();
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\n' || raw.back() == '\r'))
    raw.remove_suffix(1);
  if (!raw.empty() && raw.find_first_not_of("0123456789") == std::string_view::npos)
    return raw.find_first_not_of('0') == std::string_view::npos ? 0 : saturated_count(HUGE_VAL);
  return 0;
}

void parse_lines(od::array lines, FileCoverage& file, const std::string& origin) {
  for (od::value entry : lines) {
    LineCount lc;
    for (auto field : entry.get_object()) {
      const std::string_view key = field.unescaped_key();
      if (key == "line_number")
        lc.line = to_line(field.value().get_int64(), origin);
      else if (key == "count")
        lc.count = to_count(field.value());
    }
    if (lc.line != 0) file.lines.push_back(lc);
  }
}

void parse_functions(od::array functions, FileCoverage& file, const std::string& origin) {
  for (od::value entry : functions) {
    FunctionRange f;
    std::string_view mangled;
    for (auto field : entry.get_object()) {
      const std::string_view key = field.unescaped_key();
      if (key == "demangled_name")
        f.name = std::string_view(field.value().get_string());
      else if (key == "name")
        mangled = field.value().get_string();
      else if (key == "start_line")
        f.first_line = to_line(field.value().get_int64(), origin);
      else if (key == "end_line")
        f.last_line = to_line(field.value().get_int64(), origin);
    }
    if (f.name.empty()) f.name = demangle(mangled);
    if (f.first_line == 0) continue;
    if (f.last_line < f.first_line) f.last_line = f.first_line;
    file.functions.push_back(std::move(f));
  }
}

void parse_document(od::parser& parser, simdjson::padded_string_view line, const std::string& origin,
                    CoverageReport& report, std::vector<std::string>* data_files) {
  const std::size_t first_file = report.files.size();
  std::string base, data_file;
  od::document doc = parser.iterate(line);
  for (auto field : doc.get_object()) {
    const std::string_view key = field.unescaped_key();
    if (key == "files") {
      for (od::value entry : field.value().get_array()) {
        FileCoverage file;
        for (auto f : entry.get_object()) {
          const std::string_view k = f.unescaped_key();
          if (k == "file")
            file.path = std::string_view(f.value().get_string());
          else if (k == "lines")
            parse_lines(f.value().get_array(), file, origin);
          else if (k == "functions")
            parse_functions(f.value().get_array(), file, origin);
        }
        if (file.path.empty()) throw Error(origin, 0, "a gcov file entry without \"file\"");
        report.files.push_back(std::move(file));
      }
    } else if (key == "current_working_directory") {
      base = std::string_view(field.value().get_string());
    } else if (key == "data_file") {
      data_file = std::string_view(field.value().get_string());
    }
  }
  // The directory comes after the files in gcov's output; apply it afterwards.
  for (std::size_t i = first_file; i < report.files.size(); ++i) report.files[i].base = base;
  if (data_files) {
    data_files->resize(first_file);
    data_files->resize(report.files.size(), data_file);
  }
}

}  // namespace

void parse_gcov_json(std::string_view text, const std::string& origin, CoverageReport& report,
                     std::vector<std::string>* data_files) {
  // One padded copy for the whole output, each document parsed in place: gcov prints
  // one document per line (one per .gcda).
  const simdjson::padded_string padded(text);
  const char* data = padded.data();
  const std::size_t size = padded.size();
  od::parser parser;
  std::size_t pos = 0;
  std::size_t number = 0;
  while (pos < size) {
    const char* nl = static_cast<const char*>(std::memchr(data + pos, '\n', size - pos));
    const std::size_t end = nl ? static_cast<std::size_t>(nl - data) : size;
    const std::size_t length = end - pos;
    ++number;
    if (length > 0 && std::string_view(data + pos, length).find_first_not_of(" \t\r") != std::string_view::npos) {
      try {
        parse_document(parser, simdjson::padded_string_view(data + pos, length, size + simdjson::SIMDJSON_PADDING - pos),
                       origin, report, data_files);
      } catch (const simdjson::simdjson_error& e) {
        throw Error(origin, 0, fmt::format("gcov JSON document {} is malformed: {}", number, e.what()));
      }
    }
    pos = end + 1;
  }
}

std::string demangle(std::string_view symbol) {
  if (!symbol.starts_with("_Z")) return std::string(symbol);
  const std::string name(symbol);
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

}  // namespace dlfl::collect
