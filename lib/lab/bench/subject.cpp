// Reading subject files (include/dlfl/lab/bench/subject.h).
#include "dlfl/lab/bench/subject.h"

#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"
#include "dlfl/collect/shell_quoting.h"
#include "dlfl/error.h"
#include "dlfl/printable.h"
#include "dlfl/lab/eval/bugset_names.h"

namespace dlfl::bench {
namespace {

using nlohmann::json;

// The placeholders a subject's commands may use (values come from the bench run).
const std::map<std::string, std::string>& known_placeholders() {
  static const std::map<std::string, std::string> names{
      {"source", ""}, {"build", ""}, {"cflags", ""}, {"ldflags", ""}, {"launcher", ""}, {"jobs", ""}, {"cmake_args", ""}};
  return names;
}

// A reproduction's tests may name the test files of the fix ({fix_tests}): a project whose
// candidates' fixes touch different test files then needs one recipe, not one per bug.
std::map<std::string, std::string> test_placeholders(bool recipe) {
  auto names = known_placeholders();
  if (recipe) names.emplace(std::string(kFixTestsPlaceholder), "");
  return names;
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& what) const { throw Error(file_, 0, what); }

  std::string string(const json& object, const char* key, bool required) const {
    const auto it = object.find(key);
    if (it == object.end()) {
      if (required) fail(std::string("missing field \"") + key + "\"");
      return {};
    }
    if (!it->is_string()) fail(std::string("field \"") + key + "\" must be a string");
    return it->get<std::string>();
  }

  std::vector<std::string> strings(const json& object, const char* key, std::vector<std::string> fallback) const {
    const auto it = object.find(key);
    if (it == object.end()) return fallback;
    if (!it->is_array()) fail(std::string("field \"") + key + "\" must be an array of strings");
    std::vector<std::string> out;
    for (const auto& item : *it) {
      if (!item.is_string()) fail(std::string("field \"") + key + "\" must be an array of strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }

  std::chrono::seconds seconds(const json& object, const char* key, std::chrono::seconds fallback) const {
    const auto it = object.find(key);
    if (it == object.end()) return fallback;
    // Whole seconds, rounded up (0.3 must not become 0 = "already timed out"); at most a
    // week, so the cast and the deadline arithmetic cannot overflow.
    constexpr double kMaxSeconds = 7 * 24 * 3600.0;
    if (!it->is_number() || !(it->get<double>() > 0) || it->get<double>() > kMaxSeconds)
      fail(std::string("timeout \"") + key + "\" must be a number of seconds in (0, 604800]");
    return std::chrono::seconds(static_cast<long>(std::ceil(it->get<double>())));
  }

  void only(const json& object, const std::set<std::string>& keys, const std::string& where) const {
    for (const auto& [key, value] : object.items())
      if (!keys.contains(key)) fail("unknown field \"" + key + "\"" + where);
  }

 private:
  std::string file_;
};

bool valid_name(const std::string& name) {
  if (name.empty()) return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') return false;
  return true;
}

}  // namespace

std::string_view to_string(Backend backend) {
  switch (backend) {
    case Backend::runtime: return "runtime";
    case Backend::gcov: return "gcov";
    case Backend::llvm: return "llvm";
  }
  return "runtime";
}

std::string expand_command(std::string_view command, const std::map<std::string, std::string>& vars) {
  // dlfl's own flag lists and numbers are several words by design and hold no quote;
  // everything else (paths built from -o and a manifest's names) is one quoted word.
  static const std::set<std::string, std::less<>> word_lists{"cflags", "ldflags", "launcher", "jobs", "cmake_args", ""};
  std::string out;
  collect::ShellQuoteTracker quoting;
  auto literal = [&](std::string_view text) {
    out += text;
    quoting.feed(text);
  };
  for (std::size_t i = 0; i < command.size(); ++i) {
    if (command[i] != '{') {
      literal(command.substr(i, 1));
      continue;
    }
    if (i + 1 < command.size() && command[i + 1] == '{') {
      literal("{");
      ++i;
      continue;
    }
    const auto close = command.find('}', i);
    if (close == std::string_view::npos)
      throw Error("unclosed '{' at column " + std::to_string(i + 1) + " of the command '" + std::string(command) + "'");
    const std::string name(command.substr(i + 1, close - i - 1));
    const auto it = vars.find(name);
    if (it == vars.end())
      throw Error("unknown placeholder {" + name + "} in the command '" + std::string(command) +
                  "' (known: {source} {build} {cflags} {ldflags} {launcher} {cmake_args} {jobs}, and in a "
                  "reproduction recipe's test_list and test_command {fix_tests})");
    if (name == kFixTestsPlaceholder) {
      // A list of paths from a manifest: each its own quoted word, so only where words go.
      if (quoting.escaped() || quoting.state() != collect::ShellQuoting::none)
        throw Error("the placeholder {" + name + "} stands for several words: put it outside quotes and after no "
                    "backslash in the command '" + std::string(command) + "'");
      std::string words;
      std::istringstream paths(it->second);
      // "./" before a leading '-': a file name, never an option of the command it follows.
      for (std::string path; std::getline(paths, path);)
        if (!path.empty())
          words += (words.empty() ? "" : " ") + collect::shell_quote((path.starts_with('-') ? "./" : "") + path);
      literal(words);
    } else if (word_lists.contains(name)) {
      literal(it->second);
    } else {
      out += collect::quote_for_shell(it->second, quoting, "{" + name + "}");
    }
    i = close;
  }
  return out;
}

namespace {

Subject parse(std::string_view text, const std::filesystem::path& file, bool recipe) {
  const Reader r(file.string());
  json doc;
  io::check_json_depth(text, file.string());
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error; out_of_range for 1e400
    r.fail(std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_object()) r.fail("a subject file holds one JSON object");
  r.only(doc,
         {"name", "kind", "root", "configure", "build", "test_binary", "test_filter", "test_list", "test_command",
          "mutate", "instrument_exclude", "backend", "timeouts", "description", "url_map", "url_pin", "submodules",
          "prepare", "cxx_standard", "cflags", "cmake_args"},
         "");

  Subject s = recipe ? generic_recipe() : Subject{};
  s.file = file;
  if (recipe) {
    const std::pair<const char*, std::string> defaults[] = {
        {"name", s.name}, {"configure", s.configure}, {"build", s.build}, {"test_binary", ""}};
    for (const auto& [key, value] : defaults)
      if (!doc.contains(key)) doc[key] = value;
  }
  s.name = r.string(doc, "name", true);
  if (!valid_name(s.name)) r.fail("name '" + s.name + "' must be letters, digits, '_', '-' or '.'");
  if (doc.contains("kind")) {
    s.kind = r.string(doc, "kind", true);
    if (s.kind != "dl" && s.kind != "traditional") r.fail("kind must be \"dl\" or \"traditional\", not '" + s.kind + "'");
  }
  const std::string root = doc.contains("root") ? r.string(doc, "root", true) : ".";
  s.root = (file.parent_path() / root).lexically_normal();
  if (!s.root.has_filename()) s.root = s.root.parent_path();  // "dir/." normalizes to "dir/"
  s.configure = r.string(doc, "configure", true);
  s.build = r.string(doc, "build", true);
  s.test_binary = r.string(doc, "test_binary", false);
  s.test_list = r.string(doc, "test_list", false);
  s.test_command = r.string(doc, "test_command", false);
  if (s.test_list.empty() != s.test_command.empty())
    r.fail("test_list and test_command go together: one lists the tests, the other runs one");
  if (!s.test_command.empty() && !s.test_binary.empty())
    r.fail("test_binary and test_list/test_command are two ways to name the tests: give one");
  if (s.test_binary.empty() && s.test_command.empty() && !recipe)
    r.fail(doc.contains("test_binary") ? "test_binary must not be empty (or give test_list and test_command)"
                                       : "missing field \"test_binary\" (or give test_list and test_command)");
  if (const std::string problem = s.test_binary.empty() ? "" : eval::repository_path_problem(s.test_binary);
      !problem.empty())
    r.fail("test_binary '" + s.test_binary + "' " + problem + " (it names a file inside the build directory)");
  // Real projects' build habits (reproduction recipes; bench subjects may use them too).
  if (const auto it = doc.find("url_map"); it != doc.end()) {
    if (!it->is_object()) r.fail("field \"url_map\" must be an object of URL: local path");
    for (const auto& [url, local] : it->items()) {
      if (!local.is_string() || local.get<std::string>().empty())
        r.fail("url_map[\"" + url + "\"] must be the path of a local copy");
      const std::string path = local.get<std::string>();
      if (path.starts_with(kReposPlaceholder)) {
        const std::string_view rest = std::string_view(path).substr(kReposPlaceholder.size());
        if (!recipe) r.fail("url_map[\"" + url + "\"]: {repos} is known to reproduction recipes only");
        if (!rest.starts_with('/') || !eval::repository_path_problem(rest.substr(1)).empty())
          r.fail("url_map[\"" + url + "\"]: {repos} is followed by /FOLDER, a path inside the clones' directory");
        s.url_map[url] = path;  // resolved by reproduce_bugs against --repos
      } else {
        s.url_map[url] = (file.parent_path() / path).lexically_normal().string();
      }
    }
  }
  if (const auto it = doc.find("url_pin"); it != doc.end()) {
    if (!recipe) r.fail("url_pin is known to reproduction recipes only (it pins downloads to a bug's date)");
    if (!it->is_object()) r.fail("field \"url_pin\" must be an object of URL: git revision (or \"none\")");
    static const std::regex revision(R"([A-Za-z0-9_][A-Za-z0-9._/^~-]{0,254})");
    for (const auto& [url, rev] : it->items()) {
      if (!s.url_map.contains(url)) r.fail("url_pin[\"" + url + "\"]: the URL is not one of url_map's");
      if (!rev.is_string() || !std::regex_match(rev.get<std::string>(), revision))
        r.fail("url_pin[\"" + url + "\"] must be a git revision of the mapped clone (a tag, a commit id) or \"none\"");
      s.url_pin[url] = rev.get<std::string>();
    }
  }
  if (doc.contains("submodules")) {
    s.submodules = r.strings(doc, "submodules", {});
    for (const auto& path : *s.submodules)
      if (const std::string problem = eval::repository_path_problem(path); !problem.empty() || path.starts_with('-'))
        r.fail("submodules: '" + path + "' " + (problem.empty() ? "must not start with '-'" : problem) +
               " (it names a submodule's path in the repository)");
  }
  if (doc.contains("prepare")) {
    if (!recipe) r.fail("prepare is known to reproduction recipes only (it runs after each checkout of a bug)");
    s.prepare = r.string(doc, "prepare", false);
  }
  if (const auto it = doc.find("cxx_standard"); it != doc.end()) {
    static const std::set<int> standards{98, 11, 14, 17, 20, 23};
    if (!it->is_number_integer() || !standards.contains(it->get<int>()))
      r.fail("cxx_standard must be one of 98, 11, 14, 17, 20, 23");
    s.cmake_args.push_back("-DCMAKE_CXX_STANDARD=" + std::to_string(it->get<int>()));
  }
  for (const auto& arg : r.strings(doc, "cmake_args", {})) s.cmake_args.push_back(arg);
  s.extra_cflags = r.string(doc, "cflags", false);
  // {cflags} is a word list that commands use unquoted or inside quotes ('-O0 {cflags}'):
  // only characters that mean nothing to the shell in any of those places.
  for (const auto c : s.extra_cflags)
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view(" _=+,.:/@%-").find(c) == std::string_view::npos)
      r.fail(fmt::format("cflags holds '{}', which the shell would read as more than a compiler flag; cflags "
                         "are words of letters, digits and _=+,.:/@%- (quote-needing flags go in cmake_args)",
                         printable(std::string(1, c))));
  s.test_filter = r.string(doc, "test_filter", false);
  for (const auto* command : {&s.configure, &s.build, &s.test_list, &s.prepare}) {
    try {
      expand_command(*command, command == &s.test_list ? test_placeholders(recipe) : known_placeholders());
    } catch (const Error& e) {
      r.fail(e.what());
    }
  }
  if (!s.test_command.empty()) {
    if (s.test_command.find("{}") == std::string::npos)
      r.fail("test_command must hold {} where the test's name goes");
    try {
      auto vars = test_placeholders(recipe);
      vars[""] = "{}";
      expand_command(s.test_command, vars);
    } catch (const Error& e) {
      r.fail(e.what());
    }
  }
  if (const auto it = doc.find("mutate"); it != doc.end()) {
    if (!it->is_object()) r.fail("field \"mutate\" must be an object");
    r.only(*it, {"files", "exclude", "operators"}, " in \"mutate\"");
    s.mutate_files = r.strings(*it, "files", s.mutate_files);
    s.mutate_exclude = r.strings(*it, "exclude", {});
    s.operators = r.strings(*it, "operators", {});
  }
  s.instrument_exclude = r.strings(doc, "instrument_exclude", s.instrument_exclude);
  if (doc.contains("backend")) {
    const std::string backend = r.string(doc, "backend", true);
    if (backend == "runtime") s.backend = Backend::runtime;
    else if (backend == "gcov") s.backend = Backend::gcov;
    else if (backend == "llvm") s.backend = Backend::llvm;
    else r.fail("backend must be \"runtime\", \"gcov\" or \"llvm\", not '" + backend + "'");
  }
  if (const auto it = doc.find("timeouts"); it != doc.end()) {
    if (!it->is_object()) r.fail("field \"timeouts\" must be an object");
    r.only(*it, {"build", "test", "fault"}, " in \"timeouts\"");
    s.build_timeout = r.seconds(*it, "build", s.build_timeout);
    s.test_timeout = r.seconds(*it, "test", s.test_timeout);
    s.fault_timeout = r.seconds(*it, "fault", s.fault_timeout);
  }
  return s;
}

}  // namespace

Subject parse_subject(std::string_view text, const std::filesystem::path& file) { return parse(text, file, false); }
Subject parse_recipe(std::string_view text, const std::filesystem::path& file) { return parse(text, file, true); }

void resolve_repos_placeholder(Subject& recipe, const std::filesystem::path& repos) {
  for (auto& [url, local] : recipe.url_map)
    if (local.starts_with(kReposPlaceholder))
      local = (std::filesystem::absolute(repos) / local.substr(kReposPlaceholder.size() + 1)).lexically_normal().string();
}

Subject generic_recipe() {
  Subject s;
  s.name = "generic-cmake";
  s.kind = "dl";
  s.configure =
      "cmake -S {source} -B {build} -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS='-O0 {cflags}' "
      "-DCMAKE_CXX_FLAGS='-O0 {cflags}' -DCMAKE_EXE_LINKER_FLAGS='{ldflags}' -DCMAKE_SHARED_LINKER_FLAGS='{ldflags}' "
      "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DBUILD_TESTING=ON {launcher} {cmake_args}";
  s.build = "cmake --build {build} -j {jobs}";
  s.backend = Backend::gcov;
  // Real projects: builds of an hour, suites of many minutes.
  s.build_timeout = std::chrono::seconds(4 * 3600);
  s.test_timeout = std::chrono::seconds(300);
  s.fault_timeout = std::chrono::seconds(2 * 3600);
  return s;
}

Subject read_subject(const std::filesystem::path& file) {
  const std::filesystem::path absolute = std::filesystem::absolute(file).lexically_normal();
  return parse_subject(io::read_text_file(absolute, kMaxSubjectFileBytes, "subject file"), absolute);
}

Subject read_recipe(const std::filesystem::path& file) {
  const std::filesystem::path absolute = std::filesystem::absolute(file).lexically_normal();
  return parse_recipe(io::read_text_file(absolute, kMaxSubjectFileBytes, "recipe"), absolute);
}

}  // namespace dlfl::bench
