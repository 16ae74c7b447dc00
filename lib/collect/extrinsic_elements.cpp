// Extrinsic elements of gtest parameters and environment variables (see extrinsic_elements.h).
#include "dlfl/collect/extrinsic_elements.h"

#include <cstdlib>
#include <unordered_map>

#include "dlfl/collect/test_source.h"

namespace dlfl::collect {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// `# KEY = VALUE` after a listing line's name: "KEY=VALUE", or "" when there is none.
std::string label_of_comment(std::string_view line) {
  const auto hash = line.find("  # ");
  if (hash == std::string_view::npos) return {};
  const std::string_view comment = line.substr(hash + 4);
  const auto eq = comment.find(" = ");
  if (eq == std::string_view::npos) return {};
  return std::string(trim(comment.substr(0, eq))) + "=" + std::string(trim(comment.substr(eq + 3)));
}

// Rows of a spectrum: per test, the elements it covers.
std::vector<std::vector<std::uint32_t>> rows_of(const Spectrum& s) {
  std::vector<std::vector<std::uint32_t>> rows(s.test_count());
  for (std::size_t e = 0; e < s.element_count(); ++e)
    for (const std::uint32_t t : s.coverage().tests_of(e)) rows[t].push_back(static_cast<std::uint32_t>(e));
  return rows;
}

}  // namespace

std::map<std::string, std::vector<std::string>> gtest_parameter_labels(std::string_view listing) {
  std::map<std::string, std::vector<std::string>> labels;
  std::string suite, suite_label;
  std::size_t pos = 0;
  while (pos < listing.size()) {
    auto end = listing.find('\n', pos);
    if (end == std::string_view::npos) end = listing.size();
    const std::string_view line = listing.substr(pos, end - pos);
    pos = end + 1;
    if (line.starts_with("  ")) {
      if (suite.empty()) continue;
      const std::string_view rest = trim(line);
      const std::string name = suite + std::string(rest.substr(0, rest.find_first_of(" \t")));
      std::vector<std::string> of_test;
      if (!suite_label.empty()) of_test.push_back(suite_label);
      if (auto l = label_of_comment(line); !l.empty()) of_test.push_back(std::move(l));
      if (!of_test.empty()) labels[name] = std::move(of_test);
      continue;
    }
    const std::string_view word = trim(line).substr(0, trim(line).find_first_of(" \t"));
    suite = word.size() > 1 && word.back() == '.' ? std::string(word) : std::string();
    suite_label = suite.empty() ? std::string() : label_of_comment(line);
  }
  // Only the tests parse_gtest_list() keeps (DISABLED_ ones are not run).
  std::map<std::string, std::vector<std::string>> kept;
  for (const auto& name : parse_gtest_list(listing))
    if (auto it = labels.find(name); it != labels.end()) kept.emplace(name, std::move(it->second));
  return kept;
}

std::vector<std::string> environment_labels(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& name : names) {
    const char* value = std::getenv(name.c_str());
    out.push_back(name + "=" + (value ? value : ""));
  }
  return out;
}

Spectrum add_extrinsic_elements(const Spectrum& s,
                                const std::function<std::vector<std::string>(const TestCase&)>& labels_of) {
  SpectrumBuilder b;
  for (std::size_t e = 0; e < s.element_count(); ++e) b.add_copy(s, e);
  auto rows = rows_of(s);
  std::unordered_map<std::string, std::uint32_t> ids;
  for (std::size_t t = 0; t < s.test_count(); ++t)
    for (const auto& label : labels_of(s.tests()[t])) {
      auto [it, inserted] = ids.try_emplace(label, 0);
      if (inserted) it->second = b.add_extrinsic(label);
      rows[t].push_back(it->second);
    }
  for (std::size_t t = 0; t < s.test_count(); ++t) b.add_test(s.tests()[t], rows[t]);
  return std::move(b).finish();
}

}  // namespace dlfl::collect
