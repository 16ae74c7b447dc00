// CTest as a test source: the tests and their properties from `ctest --show-only=json-v1`.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "dlfl/collect/process.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "dlfl/files/json_depth.h"

namespace dlfl::collect {
namespace {

std::vector<std::string> string_list(const nlohmann::json& value) {
  std::vector<std::string> out;
  if (value.is_string()) out.push_back(value.get<std::string>());
  if (value.is_array())
    for (const auto& v : value)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

// CMake booleans arrive as JSON booleans, but a property set by hand may be a string.
bool truthy(const nlohmann::json& value) {
  if (value.is_boolean()) return value.get<bool>();
  if (value.is_number()) return value.get<double>() != 0.0;
  if (value.is_string()) {
    std::string s = value.get<std::string>();
    for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s == "1" || s == "ON" || s == "YES" || s == "TRUE" || s == "Y";
  }
  return false;
}

std::optional<double> number(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    try {
      return std::stod(value.get<std::string>());
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

std::vector<TestCommand> ctest_tests(const nlohmann::json& doc, const std::string& origin,
                                     std::vector<std::string>* skipped);

}  // namespace

std::vector<TestCommand> parse_ctest_json(std::string_view json, const std::string& origin,
                                          std::vector<std::string>* skipped) {
  nlohmann::json doc;
  io::check_json_depth(json, origin);
  try {
    doc = nlohmann::json::parse(json);
  } catch (const nlohmann::json::exception& e) {
    throw Error(origin, 0, std::string("not CTest's JSON test list: ") + e.what());
  }
  // A member of the wrong type (`"name": 3`) is nlohmann's type_error: bad input too
  // (found by fuzz/test_listing_fuzzer).
  try {
    return ctest_tests(doc, origin, skipped);
  } catch (const nlohmann::json::exception& e) {
    throw Error(origin, 0, std::string("not CTest's JSON test list: ") + e.what());
  }
}

namespace {

std::vector<TestCommand> ctest_tests(const nlohmann::json& doc, const std::string& origin,
                                     std::vector<std::string>* skipped) {
  if (!doc.is_object() || doc.value("kind", "") != "ctestInfo" || !doc.contains("tests") || !doc["tests"].is_array())
    throw Error(origin, 0, "not CTest's JSON test list (kind ctestInfo with tests)");
  std::vector<TestCommand> tests;
  for (const auto& entry : doc["tests"]) {
    TestCommand t;
    t.name = entry.value("name", "");
    if (t.name.empty()) throw Error(origin, 0, "a test without a name");
    bool is_disabled = false;
    if (entry.contains("properties") && entry["properties"].is_array())
      for (const auto& p : entry["properties"]) {
        const std::string key = p.value("name", "");
        const auto& value = p.contains("value") ? p["value"] : nlohmann::json();
        if (key == "WORKING_DIRECTORY" && value.is_string())
          t.cwd = value.get<std::string>();
        else if (key == "ENVIRONMENT")
          t.env = string_list(value);
        else if (key == "TIMEOUT") {
          // At most a year: a larger number is no limit, and the cast stays defined.
          if (const auto s = number(value); s && *s > 0)
            t.timeout = std::chrono::milliseconds(static_cast<long long>(std::ceil(std::min(*s, 3.2e7) * 1000)));
        } else if (key == "WILL_FAIL")
          t.will_fail = truthy(value);
        else if (key == "DISABLED")
          is_disabled = truthy(value);
        else if (key == "SKIP_RETURN_CODE") {
          if (const auto code = number(value); code && *code >= 0 && *code <= 255)
            t.skip_return_code = static_cast<int>(*code);
        } else if (key == "PASS_REGULAR_EXPRESSION")
          t.pass_regex = string_list(value);
        else if (key == "FAIL_REGULAR_EXPRESSION")
          t.fail_regex = string_list(value);
        else if (key == "SKIP_REGULAR_EXPRESSION")
          t.skip_regex = string_list(value);
      }
    if (entry.contains("command")) t.argv = string_list(entry["command"]);
    if (is_disabled || t.argv.empty()) {
      if (skipped) skipped->push_back(t.name);
      continue;
    }
    tests.push_back(std::move(t));
  }
  return tests;
}

}  // namespace

std::vector<TestCommand> list_ctest_tests(const std::filesystem::path& build_dir, const std::vector<std::string>& env,
                                          std::vector<std::string>* skipped) {
  std::error_code ec;
  if (!std::filesystem::is_directory(build_dir, ec)) throw Error(build_dir.string(), 0, "no such CTest build directory");
  ProcessSpec spec;
  spec.argv = {"ctest", "--show-only=json-v1"};
  spec.cwd = build_dir;
  spec.env_set = env;
  spec.timeout = std::chrono::seconds(300);  // PRE_TEST gtest discovery runs the binaries
  spec.merge_stderr = false;
  spec.stdout_limit = SIZE_MAX;
  ProcessResult r;
  try {
    r = run_process(spec);
  } catch (const Error& e) {
    throw Error(build_dir.string(), 0, std::string(e.what()) + " (is CMake's ctest on PATH?)");
  }
  if (!r.ok())
    throw Error(build_dir.string(), 0,
                fmt::format("ctest --show-only=json-v1 failed: {}: {}", describe_end(r, spec.timeout),
                            r.err.substr(0, 500)));
  return parse_ctest_json(r.out, build_dir.string(), skipped);
}

}  // namespace dlfl::collect
