// Reads python/dlfl_pytest's pytest-run.json (see pytest_run_report.h).
#include "dlfl/formats/pytest_run_report.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include "dlfl/error.h"
#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"

namespace dlfl::io {
namespace {

using nlohmann::json;

const json& member(const json& object, const char* name, json::value_t type, const std::string& source,
                   const std::string& where) {
  const auto it = object.find(name);
  const bool ok = it != object.end() &&
                  (it->type() == type || (type == json::value_t::number_unsigned && it->is_number_integer() &&
                                          it->get<std::int64_t>() >= 0));
  if (!ok) throw Error(source, 0, where + ": \"" + name + "\" is missing or of the wrong type");
  return *it;
}

std::vector<std::string> strings(const json& array, const std::string& source, const std::string& where) {
  std::vector<std::string> out;
  for (const auto& v : array) {
    if (!v.is_string()) throw Error(source, 0, where + ": " + v.dump() + " is not a string");
    out.push_back(v.get<std::string>());
  }
  return out;
}

PytestRunTest read_test(const json& t, const std::string& source) {
  if (!t.is_object()) throw Error(source, 0, "a test is not an object");
  PytestRunTest test;
  test.name = member(t, "name", json::value_t::string, source, "a test").get<std::string>();
  for (const std::string& run : strings(member(t, "runs", json::value_t::array, source, test.name), source, test.name)) {
    ++test.runs;
    if (run == "failed") ++test.failed;
    else if (run == "skipped") ++test.skipped;
    else if (run != "passed") throw Error(source, 0, test.name + ": unknown outcome \"" + run + "\"");
  }
  test.extrinsic = strings(member(t, "extrinsic", json::value_t::array, source, test.name), source, test.name);
  return test;
}

}  // namespace

namespace {
PytestRunReport report_of(const json& doc, const std::string& source);
}  // namespace

PytestRunReport parse_pytest_run_report(std::string_view text, const std::string& source) {
  json doc;
  check_json_depth(text, source);
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    const std::size_t offset = std::min<std::size_t>(e.byte ? e.byte - 1 : 0, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
    throw Error(source, static_cast<std::size_t>(line), "not JSON (a dlfl_pytest run report was expected)");
  } catch (const json::exception& e) {  // out_of_range: a number beyond a double
    throw Error(source, 0, std::string("invalid JSON: ") + e.what());
  }
  // A member of the wrong type (`"format": 4`) is nlohmann's type_error: bad input too
  // (found by fuzz/pytest_run_report_fuzzer).
  try {
    return report_of(doc, source);
  } catch (const json::exception& e) {
    throw Error(source, 0, std::string("not a dlfl_pytest run report: ") + e.what());
  }
}

namespace {

PytestRunReport report_of(const json& doc, const std::string& source) {
  if (!doc.is_object() || doc.value("format", "") != "dlfl-pytest-run")
    throw Error(source, 0, "is not a dlfl_pytest run report (\"format\": \"dlfl-pytest-run\" missing)");
  // Compared as JSON: value<int>() of a float such as 6.7e65 would be an out-of-range
  // conversion (found by fuzz/pytest_run_report_fuzzer under UBSan).
  if (const auto version = doc.find("version"); version == doc.end() || *version != json(1))
    throw Error(source, 0, "is a dlfl_pytest run report of version " + doc.value("version", json(0)).dump() +
                               "; this dlfl reads version 1");
  PytestRunReport r;
  r.root = member(doc, "root", json::value_t::string, source, "the report").get<std::string>();
  r.repeat = member(doc, "repeat", json::value_t::number_unsigned, source, "the report").get<std::uint32_t>();
  if (const auto it = doc.find("coverage_json"); it != doc.end() && it->is_string()) r.coverage_json = *it;
  for (const auto& t : member(doc, "tests", json::value_t::array, source, "the report")) r.tests.push_back(read_test(t, source));
  if (const auto it = doc.find("functions"); it != doc.end() && it->is_object())
    for (const auto& [file, table] : it->items()) {
      auto& functions = r.functions[file];
      if (!table.is_array()) throw Error(source, 0, file + ": the function table is not an array");
      for (const auto& f : table) {
        if (!f.is_array() || f.size() != 3 || !f[0].is_number_integer() || !f[1].is_number_integer() || !f[2].is_string())
          throw Error(source, 0, file + ": " + f.dump() + " is not [first_line, last_line, name]");
        functions.push_back({f[0].get<std::uint32_t>(), f[1].get<std::uint32_t>(), f[2].get<std::string>()});
      }
    }
  if (const auto it = doc.find("cov_sources"); it != doc.end())
    for (const auto& c : *it) {
      if (!c.is_object()) throw Error(source, 0, "cov_sources: " + c.dump() + " is not an object");
      r.coverage_sources.push_back(
          {member(c, "source", json::value_t::string, source, "cov_sources").get<std::string>(),
           member(c, "files", json::value_t::number_unsigned, source, "cov_sources").get<std::uint32_t>()});
    }
  if (const auto it = doc.find("native"); it != doc.end()) {
    if (!it->is_object()) throw Error(source, 0, "\"native\" is not an object");
    r.native.known = true;
    r.native.runtime = member(*it, "runtime", json::value_t::boolean, source, "native").get<bool>();
    for (const auto& image : member(*it, "images", json::value_t::array, source, "native")) {
      if (!image.is_object()) throw Error(source, 0, "native: " + image.dump() + " is not an object");
      const std::string id = member(image, "map_id", json::value_t::string, source, "an image").get<std::string>();
      std::uint64_t map_id = 0;
      const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), map_id, 16);
      if (ec != std::errc() || end != id.data() + id.size())
        throw Error(source, 0, "native: map id '" + id + "' is not hexadecimal");
      r.native.images.push_back({member(image, "path", json::value_t::string, source, "an image").get<std::string>(), map_id});
    }
    r.native.uninstrumented =
        strings(member(*it, "uninstrumented_extensions", json::value_t::array, source, "native"), source, "native");
  }
  return r;
}

}  // namespace

PytestRunReport read_pytest_run_report(const std::filesystem::path& path) {
  return parse_pytest_run_report(read_text_file(path, kMaxPytestRunReportBytes, "pytest run report"), path.string());
}

}  // namespace dlfl::io
