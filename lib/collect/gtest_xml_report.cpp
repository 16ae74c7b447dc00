// parse_gtest_xml_report(): one test's result in GoogleTest's --gtest_output=xml report,
// the report format every GoogleTest since 1.6 writes (JSON only came with 1.8.1).
#include <pugixml.hpp>

#include <string>

#include "dlfl/collect/test_outcome.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

// The text of an element: GoogleTest splits a failure message holding "]]>" into several
// CDATA sections, so all of them.
std::string text_of(const pugi::xml_node& node) {
  std::string text;
  for (const auto& child : node.children())
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) text += child.value();
  return text;
}

}  // namespace

GtestResult parse_gtest_xml_report(std::string_view xml, std::string_view test, const std::string& origin) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed) throw Error(origin, 0, std::string("not a GoogleTest XML report: ") + parsed.description());
  const pugi::xml_node root = doc.child("testsuites");
  if (!root) throw Error(origin, 0, "not a GoogleTest XML report (no <testsuites>)");
  GtestResult result;
  for (const auto& suite : root.children("testsuite"))
    for (const auto& testcase : suite.children("testcase")) {
      // classname is the suite as --gtest_filter names it ("Small/AddParam", "TypedCalc/1").
      const std::string name = std::string(testcase.attribute("classname").value()) + "." + testcase.attribute("name").value();
      if (name != test) continue;
      // GoogleTest before 1.8.1 lists the tests the filter left out too, as "notrun".
      if (std::string_view(testcase.attribute("status").value()) == "notrun") return result;
      result.found = true;
      result.skipped = std::string_view(testcase.attribute("result").value()) == "skipped" ||
                       static_cast<bool>(testcase.child("skipped"));
      for (const auto& failure : testcase.children("failure")) {
        std::string text = text_of(failure);
        if (text.empty()) text = failure.attribute("message").value();
        if (text.empty()) text = "failure without a message";
        if (!result.failures.empty()) result.failures += "\n\n";
        result.failures += text;
      }
      return result;
    }
  return result;
}

}  // namespace dlfl::collect
