// Batches of pytest cases in one process: the command line and the JUnit report.
#include "dlfl/collect/pytest_batch.h"

#include <fmt/format.h>

#include <pugixml.hpp>

#include <set>

#include "dlfl/collect/shell_quoting.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

// Characters that end a shell word where a `{}` may stand beside them.
bool ends_word(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<' ||
         c == '>';
}

}  // namespace

std::string batch_command_text(std::string_view command_template) {
  if (command_template.find("{}") == std::string_view::npos)
    throw Error(fmt::format("the command template '{}' has no {{}} for the test names", command_template));
  std::string text;
  ShellQuoteTracker quoting;
  std::size_t pos = 0;
  for (;;) {
    const auto hole = command_template.find("{}", pos);
    const std::string_view literal = command_template.substr(pos, hole - pos);
    text.append(literal);
    quoting.feed(literal);
    if (hole == std::string_view::npos) break;
    const bool alone = (hole == 0 || ends_word(command_template[hole - 1])) &&
                       (hole + 2 == command_template.size() || ends_word(command_template[hole + 2]));
    if (!alone || quoting.state() != ShellQuoting::none || quoting.escaped() || quoting.after_dollar() ||
        quoting.in_arithmetic() || quoting.in_backquotes_or_parameter() || quoting.too_deep_for_placeholder())
      throw Error(fmt::format(
          "the command template '{}': a batch of tests needs each {{}} to stand unquoted as a word of its own",
          command_template));
    text += "\"$@\"";
    quoting.feed("\"$@\"");
    pos = hole + 2;
  }
  return text;
}

std::string batch_addopts(std::string_view inherited, const std::string& report) {
  std::string quoted = "'";
  for (const char c : report) quoted += c == '\'' ? std::string("'\"'\"'") : std::string(1, c);
  quoted += "'";
  std::string out(inherited);
  if (!out.empty()) out += ' ';
  return out + "-v -v --junitxml=" + quoted;
}

std::optional<std::string> unfinished_case(std::string_view out, const std::vector<std::string>& node_ids) {
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.remove_suffix(1);
  const auto nl = out.rfind('\n');
  std::string_view line = nl == std::string_view::npos ? out : out.substr(nl + 1);
  if (!line.ends_with(' ')) return std::nullopt;  // an outcome ends a finished case's line
  while (line.ends_with(' ')) line.remove_suffix(1);
  for (const std::string& id : node_ids)
    if (line == id || (line.starts_with(id) && line.substr(id.size()).starts_with(" <- "))) return id;
  return std::nullopt;
}

std::vector<std::string> passed_cases(std::string_view out, const std::vector<std::string>& node_ids) {
  std::set<std::string_view> ids(node_ids.begin(), node_ids.end());
  std::vector<std::string> passed;
  while (!out.empty()) {
    const auto nl = out.find('\n');
    std::string_view line = out.substr(0, nl);
    out = nl == std::string_view::npos ? std::string_view() : out.substr(nl + 1);
    // "ID PASSED   [ 12%]", or "ID <- FILE PASSED ..." for a test defined elsewhere.
    for (const char* word : {" PASSED", " SKIPPED", " XFAIL", " XPASS"}) {
      const auto at = line.find(word);
      if (at == std::string_view::npos) continue;
      std::string_view id = line.substr(0, at);
      if (const auto from = id.find(" <- "); from != std::string_view::npos) id = id.substr(0, from);
      if (const auto it = ids.find(id); it != ids.end()) {
        passed.emplace_back(*it);
        ids.erase(it);
      }
      break;
    }
  }
  return passed;
}

std::pair<std::string, std::string> junit_names(std::string_view node_id) {
  const auto bracket = node_id.find('[');
  const std::string_view path = node_id.substr(0, bracket);
  const std::string_view params = bracket == std::string_view::npos ? std::string_view() : node_id.substr(bracket);
  std::vector<std::string> names;
  for (std::size_t start = 0;;) {
    const auto sep = path.find("::", start);
    names.emplace_back(path.substr(start, sep - start));
    if (sep == std::string_view::npos) break;
    start = sep + 2;
  }
  for (char& c : names.front())
    if (c == '/') c = '.';
  if (names.front().ends_with(".py")) names.front().resize(names.front().size() - 3);
  names.back() += params;
  std::string classname;
  for (std::size_t i = 0; i + 1 < names.size(); ++i) classname += (i ? "." : "") + names[i];
  return {classname, names.back()};
}

std::map<std::string, PytestCaseResult> parse_pytest_junit(std::string_view xml,
                                                           const std::vector<std::string>& node_ids,
                                                           const std::string& origin) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed) throw Error(origin, 0, std::string("not a pytest JUnit report: ") + parsed.description());
  pugi::xml_node root = doc.child("testsuites");
  if (!root && !doc.child("testsuite")) throw Error(origin, 0, "not a pytest JUnit report (no <testsuites>)");
  if (!root) root = doc;

  // Each (classname, name) pair to the one id that maps to it; "" where two do.
  std::map<std::pair<std::string, std::string>, std::string> id_of;
  for (const std::string& id : node_ids) {
    const auto [it, fresh] = id_of.emplace(junit_names(id), id);
    if (!fresh) it->second.clear();
  }
  std::map<std::string, PytestCaseResult> out;
  for (const auto& suite : root.children("testsuite"))
    for (const auto& testcase : suite.children("testcase")) {
      const auto it = id_of.find({testcase.attribute("classname").value(), testcase.attribute("name").value()});
      if (it == id_of.end() || it->second.empty()) continue;
      // pytest writes one testcase a case; a teardown error after a failure adds a
      // second element to it, and a failure wins.
      PytestCaseResult& result = out[it->second];
      result.seconds += testcase.attribute("time").as_double();
      for (const char* element : {"failure", "error"})
        if (const pugi::xml_node bad = testcase.child(element); bad && result.kind == TestOutcome::Kind::passed) {
          result.kind = TestOutcome::Kind::failed;
          result.message = bad.attribute("message").value();
          if (result.message.empty()) result.message = std::string(element) + " without a message";
        }
    }
  return out;
}

}  // namespace dlfl::collect
