// Ranking as SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format): one run,
// one rule per formula, one result per suspicious element, for GitHub code scanning and
// SARIF viewers (VS Code's SARIF viewer, ...).
#include <fmt/format.h>

#include <cctype>
#include <nlohmann/json.hpp>

#include "dlfl/formula.h"
#include "ranking_text.h"

namespace dlfl::io::detail {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr std::string_view kRootId = "SRCROOT";

// RFC 3986: everything but unreserved characters and '/' is percent-encoded, so a path
// with spaces, '#' or '%' is still one valid URI reference.
std::string uri_path(std::string_view path) {
  std::string out;
  for (const unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}

// originalUriBaseIds URIs must be absolute and end with '/' (SARIF §3.14.14).
std::string root_uri(const std::filesystem::path& root) {
  std::string path = std::filesystem::absolute(root).lexically_normal().generic_string();
  if (path.empty() || path.back() != '/') path += '/';
  return "file://" + uri_path(path);
}

// A rule id per formula: the name when it is a plain word (ochiai, dstar:3), else
// `expression-N` (an expression's text lives in the rule's description).
std::string rule_id(std::string_view formula, std::size_t index) {
  const bool plain = !formula.empty() && std::all_of(formula.begin(), formula.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-' || c == ':' || c == '.';
  });
  return "sbfl/" + (plain ? std::string(formula) : fmt::format("expression-{}", index + 1));
}

// A position or count as a JSON number: an integer when whole (3, not 3.0); flaky
// tests make counts fractional.
Json json_number(double value) {
  if (value >= 0.0 && value < 9007199254740992.0 && value == static_cast<double>(static_cast<std::uint64_t>(value)))
    return static_cast<std::uint64_t>(value);
  return value;
}


Json tool_descriptor(std::span<const FormulaRanking> rankings, const RankingWriteOptions& options) {
  Json rules = Json::array();
  for (std::size_t f = 0; f < rankings.size(); ++f) {
    const std::string formula(rankings[f].formula);
    rules.push_back({
        {"id", rule_id(formula, f)},
        {"name", "SuspiciousElement"},
        {"shortDescription", {{"text", "Suspicious under " + formula}}},
        {"fullDescription",
         {{"text", "Spectrum-based fault localization: the element's execution correlates with failing tests "
                   "under the formula " + formula + " (ef/ep: failing/passing tests that executed it)."}}},
        {"defaultConfiguration", {{"level", "warning"}}},
        {"properties", {{"formula", formula}, {"tie_rule", tie_rule_name(options.tie_rule)}}},
    });
  }
  return {{"driver",
           {{"name", "dlfl"},
            {"version", DLFL_VERSION_STRING},
            {"semanticVersion", DLFL_VERSION_STRING},
            {"fullName", "dlfl spectrum-based fault localization"},
            {"rules", std::move(rules)}}}};
}

class SarifRankingWriter final : public RankingWriter {
 public:
  bool uses_counts() const noexcept override { return true; }

  void write(std::ostream& out, const Spectrum& spectrum, std::span<const FormulaRanking> rankings,
             const RankingWriteOptions& options) const override {
    const Counts& counts = required_counts(options, spectrum, "sarif");
    const std::string what = element_word(options);
    std::size_t failing = 0, flaky = 0;
    for (const auto& t : spectrum.tests()) {
      failing += t.failed();
      flaky += t.status == TestStatus::flaky;
    }

    Json root_location = {{"description", {{"text", "The source root the ranked files are relative to."}}}};
    if (!options.source_root.empty()) root_location["uri"] = root_uri(options.source_root);
    Json run = {
        {"tool", tool_descriptor(rankings, options)},
        {"originalUriBaseIds", {{kRootId, std::move(root_location)}}},
        {"columnKind", "unicodeCodePoints"},
        {"properties",
         {{"granularity", what},
          {"tie_rule", tie_rule_name(options.tie_rule)},
          {"elements", spectrum.element_count()},
          {"tests", spectrum.test_count()},
          {"failing_tests", failing},
          {"flaky_tests", flaky}}},
    };
    // The document is written around a streamed results array: a DOM of 10^5 results with
    // their related tests would take gigabytes.
    const std::string head = Json{{"$schema", kSchema}, {"version", "2.1.0"}}.dump();
    std::string run_text = run.dump(-1, ' ', false, Json::error_handler_t::replace);
    run_text.pop_back();  // the closing brace: "results" follows
    out << head.substr(0, head.size() - 1) << ",\"runs\":[" << run_text << ",\"results\":[";

    bool first = true;
    for (std::size_t f = 0; f < rankings.size(); ++f) {
      const auto [lowest, highest] = score_range(rankings[f]);
      const std::string rule = rule_id(rankings[f].formula, f);
      for (const auto& r : rankings[f].ranking) {
        if (!(counts.ef[r.element] > 0.0)) continue;
        out << (first ? "\n" : ",\n")
            << result(spectrum, counts, rankings[f].formula, rule, f, r, normalized_score(r.score, lowest, highest),
                      what, options)
                   .dump(-1, ' ', false, Json::error_handler_t::replace);
        first = false;
      }
    }
    out << "\n]}]}\n";
  }

 private:
  static Json result(const Spectrum& spectrum, const Counts& counts, std::string_view formula,
                     const std::string& rule, std::size_t rule_index, const RankedElement& r, double rank,
                     const std::string& what, const RankingWriteOptions& options) {
    const auto e = r.element;
    const auto& element = spectrum.element(e);
    const std::string position = format_rank(r.position(options.tie_rule));
    const std::string text =
        fmt::format("Suspicious {} under {}: position {} of {} ({}), score {}; {}.", what, formula, position,
                    spectrum.element_count(), tie_text(r), readable_score(r.score), execution_summary(counts, e));

    Json location = Json::object();
    if (element.kind == ElementKind::code && !spectrum.file(e).empty()) {
      const std::string path = report_path(spectrum.file(e), options.source_root);
      Json artifact = {{"uri", uri_path(path)}};
      if (!std::filesystem::path(path).is_absolute()) artifact["uriBaseId"] = kRootId;
      else artifact["uri"] = "file://" + uri_path(path);
      Json physical = {{"artifactLocation", std::move(artifact)}};
      if (element.first_line > 0)
        physical["region"] = {{"startLine", element.first_line},
                              {"endLine", std::max(element.first_line, element.last_line)}};
      location["physicalLocation"] = std::move(physical);
    }
    if (element.kind == ElementKind::extrinsic)
      location["logicalLocations"] = Json::array({{{"name", spectrum.element_name(e)}, {"kind", "element"}}});
    else if (!spectrum.function(e).empty())
      location["logicalLocations"] = Json::array(
          {{{"name", spectrum.function(e)}, {"fullyQualifiedName", spectrum.function(e)}, {"kind", "function"}}});

    Json related = Json::array();
    std::size_t failing_covering = 0;
    for (const auto t : spectrum.coverage().tests_of(e)) {
      const auto& test = spectrum.tests()[t];
      if (!test.failed()) continue;
      if (++failing_covering > kSarifRelatedTests) continue;
      related.push_back({{"id", failing_covering},
                         {"message", {{"text", fmt::format("{} test {} executed this {}", outcome_text(test),
                                                           test.name, what)}}}});
    }

    Json properties = {
        {"formula", formula},
        {"score", r.score},
        {"position", json_number(r.position(options.tie_rule))},
        {"rank_best", r.best},
        {"rank_worst", r.worst},
        {"tie_rule", tie_rule_name(options.tie_rule)},
        {"ef", json_number(counts.ef[e])},
        {"ep", json_number(counts.ep[e])},
        {"nf", json_number(counts.nf[e])},
        {"np", json_number(counts.np[e])},
        {"element", spectrum.element_name(e)},
        {"kind", kind_name(element.kind)},
        {"language", language_name(element.language)},
        {"failing_tests_executing", failing_covering},
    };
    Json out = {
        {"ruleId", rule},
        {"ruleIndex", rule_index},
        {"level", "warning"},
        {"rank", rank},
        {"message", {{"text", text}}},
        {"locations", Json::array({std::move(location)})},
    };
    if (!related.empty()) out["relatedLocations"] = std::move(related);
    out["partialFingerprints"] = {{"dlflElement/v1", spectrum.element_name(e)}};
    out["properties"] = std::move(properties);
    return out;
  }
};

}  // namespace

std::unique_ptr<RankingWriter> make_sarif_ranking_writer() { return std::make_unique<SarifRankingWriter>(); }

}  // namespace dlfl::io::detail
