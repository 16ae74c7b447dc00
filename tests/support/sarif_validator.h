// A structural validator for SARIF 2.1.0 logs: the required properties, value sets and
// cross-references of the OASIS specification (sarif-v2.1.0-os, §3) for the objects dlfl
// writes or may write. Returns one message per violation, each naming a JSON pointer.
#pragma once

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace dlfl::testing {

class SarifValidator {
 public:
  std::vector<std::string> validate(const nlohmann::json& log) {
    errors_.clear();
    // §3.13 sarifLog: version (required, "2.1.0"), runs (required, array or null).
    if (!require_object(log, "")) return errors_;
    if (!log.contains("version")) fail("", "missing required property 'version'");
    else if (log["version"] != "2.1.0") fail("/version", "must be \"2.1.0\"");
    if (log.contains("$schema") && !is_uri(log["$schema"], true)) fail("/$schema", "must be an absolute URI");
    if (!log.contains("runs")) fail("", "missing required property 'runs'");
    else if (!log["runs"].is_array() && !log["runs"].is_null()) fail("/runs", "must be an array or null");
    else if (log["runs"].is_array())
      for (std::size_t i = 0; i < log["runs"].size(); ++i) run(log["runs"][i], "/runs/" + std::to_string(i));
    return errors_;
  }

 private:
  void fail(const std::string& pointer, const std::string& what) { errors_.push_back((pointer.empty() ? "/" : pointer) + ": " + what); }

  bool require_object(const nlohmann::json& j, const std::string& pointer) {
    if (j.is_object()) return true;
    fail(pointer, "must be an object");
    return false;
  }

  static bool is_uri(const nlohmann::json& j, bool absolute) {
    if (!j.is_string()) return false;
    const std::string s = j;
    if (s.find_first_of(" \t\n\\") != std::string::npos) return false;
    if (!absolute) return true;
    const auto colon = s.find(':');
    return colon != std::string::npos && colon > 0 && std::isalpha(static_cast<unsigned char>(s[0]));
  }

  void integer_at_least(const nlohmann::json& parent, const char* key, long long minimum, const std::string& pointer) {
    if (!parent.contains(key)) return;
    const auto& v = parent[key];
    if (!v.is_number_integer() || v.get<long long>() < minimum)
      fail(pointer + "/" + key, "must be an integer >= " + std::to_string(minimum));
  }

  void one_of(const nlohmann::json& parent, const char* key, const std::set<std::string>& values, const std::string& pointer) {
    if (!parent.contains(key)) return;
    if (!parent[key].is_string() || !values.count(parent[key].get<std::string>()))
      fail(pointer + "/" + key, "has a value outside the specification's set");
  }

  // §3.8 propertyBag: an object; `tags`, when present, unique strings.
  void properties(const nlohmann::json& parent, const std::string& pointer) {
    if (!parent.contains("properties")) return;
    const auto& bag = parent["properties"];
    if (!require_object(bag, pointer + "/properties")) return;
    if (bag.contains("tags")) {
      std::set<std::string> seen;
      if (!bag["tags"].is_array()) fail(pointer + "/properties/tags", "must be an array");
      else
        for (const auto& t : bag["tags"])
          if (!t.is_string() || !seen.insert(t.get<std::string>()).second)
            fail(pointer + "/properties/tags", "must hold unique strings");
    }
  }

  // §3.11 message: text or id is required.
  void message(const nlohmann::json& parent, const char* key, bool required, const std::string& pointer) {
    if (!parent.contains(key)) {
      if (required) fail(pointer, std::string("missing required property '") + key + "'");
      return;
    }
    const auto& m = parent[key];
    const std::string at = pointer + "/" + key;
    if (!require_object(m, at)) return;
    if (!m.contains("text") && !m.contains("id")) fail(at, "a message needs 'text' or 'id'");
    if (m.contains("text") && !m["text"].is_string()) fail(at + "/text", "must be a string");
  }

  // §3.4 artifactLocation; inside originalUriBaseIds (§3.14.14) a uri is absolute (unless
  // it has a uriBaseId itself) and ends with '/'.
  void artifact_location(const nlohmann::json& a, const std::string& pointer, bool base) {
    if (!require_object(a, pointer)) return;
    if (a.contains("uri") && !is_uri(a["uri"], false)) fail(pointer + "/uri", "must be a URI reference");
    if (a.contains("uriBaseId") && !a["uriBaseId"].is_string()) fail(pointer + "/uriBaseId", "must be a string");
    if (a.contains("uriBaseId") && a.contains("uri") && is_uri(a["uri"], true))
      fail(pointer + "/uri", "must be relative when uriBaseId is given");
    integer_at_least(a, "index", -1, pointer);
    if (base && a.contains("uri")) {
      const std::string uri = a["uri"].is_string() ? a["uri"].get<std::string>() : "";
      if (uri.empty() || uri.back() != '/') fail(pointer + "/uri", "a base URI must end with '/'");
      if (!a.contains("uriBaseId") && !is_uri(a["uri"], true)) fail(pointer + "/uri", "a base URI must be absolute");
    }
    message(a, "description", false, pointer);
    properties(a, pointer);
  }

  // §3.30 region: startLine/endLine >= 1, endLine >= startLine, at least one start.
  void region(const nlohmann::json& r, const std::string& pointer) {
    if (!require_object(r, pointer)) return;
    if (!r.contains("startLine") && !r.contains("charOffset") && !r.contains("byteOffset"))
      fail(pointer, "a region needs startLine, charOffset or byteOffset");
    for (const char* key : {"startLine", "endLine", "startColumn", "endColumn"}) integer_at_least(r, key, 1, pointer);
    if (r.contains("startLine") && r.contains("endLine") && r["startLine"].is_number_integer() &&
        r["endLine"].is_number_integer() && r["endLine"].get<long long>() < r["startLine"].get<long long>())
      fail(pointer + "/endLine", "must not be before startLine");
  }

  // §3.28 location, §3.29 physicalLocation (artifactLocation or address required),
  // §3.33 logicalLocation.
  void location(const nlohmann::json& l, const std::string& pointer) {
    if (!require_object(l, pointer)) return;
    integer_at_least(l, "id", -1, pointer);
    if (l.contains("physicalLocation")) {
      const auto& p = l["physicalLocation"];
      const std::string at = pointer + "/physicalLocation";
      if (require_object(p, at)) {
        if (!p.contains("artifactLocation") && !p.contains("address"))
          fail(at, "a physicalLocation needs artifactLocation or address");
        if (p.contains("artifactLocation")) artifact_location(p["artifactLocation"], at + "/artifactLocation", false);
        if (p.contains("region")) region(p["region"], at + "/region");
      }
    }
    if (l.contains("logicalLocations")) {
      if (!l["logicalLocations"].is_array()) fail(pointer + "/logicalLocations", "must be an array");
      else
        for (std::size_t i = 0; i < l["logicalLocations"].size(); ++i) {
          const auto& g = l["logicalLocations"][i];
          const std::string at = pointer + "/logicalLocations/" + std::to_string(i);
          if (!require_object(g, at)) continue;
          integer_at_least(g, "index", -1, at);
          integer_at_least(g, "parentIndex", -1, at);
          for (const char* key : {"name", "fullyQualifiedName", "decoratedName", "kind"})
            if (g.contains(key) && !g[key].is_string()) fail(at + "/" + key, "must be a string");
        }
    }
    message(l, "message", false, pointer);
    properties(l, pointer);
  }

  void locations(const nlohmann::json& parent, const char* key, const std::string& pointer) {
    if (!parent.contains(key)) return;
    const auto& ls = parent[key];
    if (!ls.is_array()) {
      fail(pointer + "/" + key, "must be an array");
      return;
    }
    std::set<long long> ids;
    for (std::size_t i = 0; i < ls.size(); ++i) {
      location(ls[i], pointer + "/" + key + "/" + std::to_string(i));
      if (ls[i].is_object() && ls[i].contains("id") && ls[i]["id"].is_number_integer() &&
          !ids.insert(ls[i]["id"].get<long long>()).second)
        fail(pointer + "/" + key + "/" + std::to_string(i) + "/id", "location ids must be unique");
    }
  }

  // §3.27 result: message required; level, kind, rank and rule references checked.
  void result(const nlohmann::json& r, const std::string& pointer, const nlohmann::json& rules) {
    if (!require_object(r, pointer)) return;
    message(r, "message", true, pointer);
    one_of(r, "level", {"none", "note", "warning", "error"}, pointer);
    one_of(r, "kind", {"notApplicable", "pass", "fail", "review", "open", "informational"}, pointer);
    if (r.contains("kind") && r["kind"] != "fail" && r.contains("level") && r["level"] != "none")
      fail(pointer + "/level", "must be 'none' when kind is not 'fail' (§3.27.10)");
    if (r.contains("rank")) {
      const auto& rank = r["rank"];
      if (!rank.is_number() || !(rank.get<double>() == -1.0 || (rank.get<double>() >= 0.0 && rank.get<double>() <= 100.0)))
        fail(pointer + "/rank", "must be -1 or in [0, 100]");
    }
    if (r.contains("ruleId") && !r["ruleId"].is_string()) fail(pointer + "/ruleId", "must be a string");
    integer_at_least(r, "ruleIndex", -1, pointer);
    if (r.contains("ruleIndex") && r["ruleIndex"].is_number_integer() && r["ruleIndex"].get<long long>() >= 0) {
      const auto index = r["ruleIndex"].get<std::size_t>();
      if (!rules.is_array() || index >= rules.size()) fail(pointer + "/ruleIndex", "does not index tool.driver.rules");
      else if (r.contains("ruleId") && rules[index].value("id", "") != r["ruleId"])
        fail(pointer + "/ruleId", "disagrees with the rule ruleIndex names");
    }
    locations(r, "locations", pointer);
    locations(r, "relatedLocations", pointer);
    for (const char* key : {"partialFingerprints", "fingerprints"})
      if (r.contains(key)) {
        if (!r[key].is_object()) fail(pointer + "/" + key, "must be an object");
        else
          for (const auto& [k, v] : r[key].items())
            if (!v.is_string()) fail(pointer + "/" + key + "/" + k, "must be a string");
      }
    properties(r, pointer);
  }

  // §3.14 run (tool required), §3.18 tool (driver required), §3.19 toolComponent (name
  // required), §3.49 reportingDescriptor (id required, unique).
  void run(const nlohmann::json& r, const std::string& pointer) {
    if (!require_object(r, pointer)) return;
    nlohmann::json rules;
    if (!r.contains("tool")) fail(pointer, "missing required property 'tool'");
    else if (require_object(r["tool"], pointer + "/tool")) {
      const auto& tool = r["tool"];
      if (!tool.contains("driver")) fail(pointer + "/tool", "missing required property 'driver'");
      else if (require_object(tool["driver"], pointer + "/tool/driver")) {
        const auto& driver = tool["driver"];
        const std::string at = pointer + "/tool/driver";
        if (!driver.contains("name") || !driver["name"].is_string() || driver["name"].get<std::string>().empty())
          fail(at, "missing required property 'name'");
        if (driver.contains("informationUri") && !is_uri(driver["informationUri"], true))
          fail(at + "/informationUri", "must be an absolute URI");
        if (driver.contains("rules")) {
          rules = driver["rules"];
          std::set<std::string> ids;
          if (!rules.is_array()) fail(at + "/rules", "must be an array");
          else
            for (std::size_t i = 0; i < rules.size(); ++i) {
              const std::string rule_at = at + "/rules/" + std::to_string(i);
              if (!require_object(rules[i], rule_at)) continue;
              if (!rules[i].contains("id") || !rules[i]["id"].is_string()) fail(rule_at, "missing required property 'id'");
              else if (!ids.insert(rules[i]["id"].get<std::string>()).second) fail(rule_at + "/id", "rule ids must be unique");
              for (const char* key : {"shortDescription", "fullDescription"}) message(rules[i], key, false, rule_at);
              properties(rules[i], rule_at);
            }
        }
        properties(driver, at);
      }
    }
    if (r.contains("originalUriBaseIds")) {
      if (!r["originalUriBaseIds"].is_object()) fail(pointer + "/originalUriBaseIds", "must be an object");
      else
        for (const auto& [id, base] : r["originalUriBaseIds"].items())
          artifact_location(base, pointer + "/originalUriBaseIds/" + id, true);
    }
    one_of(r, "columnKind", {"utf16CodeUnits", "unicodeCodePoints"}, pointer);
    if (r.contains("results")) {
      if (!r["results"].is_array() && !r["results"].is_null()) fail(pointer + "/results", "must be an array or null");
      else if (r["results"].is_array())
        for (std::size_t i = 0; i < r["results"].size(); ++i)
          result(r["results"][i], pointer + "/results/" + std::to_string(i), rules);
    }
    properties(r, pointer);
  }

  std::vector<std::string> errors_;
};

}  // namespace dlfl::testing
