// Checks the seeded-fault ground truth (faults/faults.json) against the sources: every
// listed line must sit inside the `#if TENSORLITE_FAULT_<ID>` branch of its own fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::filesystem::path kRoot = TENSORLITE_SOURCE_DIR;

struct FaultEntry {
  std::string id;
  std::string bug_type;
  std::string file;
  std::string function;
  std::vector<int> lines;
};

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string field(const std::string& object, const std::string& name) {
  const std::regex pattern("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"");
  std::smatch match;
  return std::regex_search(object, match, pattern) ? match[1].str() : std::string();
}

// faults.json is a flat array of flat objects, so a regex reader is enough here.
std::vector<FaultEntry> load_faults() {
  const std::string text = read_text(kRoot / "faults" / "faults.json");
  std::vector<FaultEntry> faults;
  const std::regex object_pattern("\\{[^{}]*\\}");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), object_pattern);
       it != std::sregex_iterator(); ++it) {
    const std::string object = it->str();
    FaultEntry entry{field(object, "id"), field(object, "bug_type"), field(object, "file"),
                     field(object, "function"), {}};
    std::smatch lines;
    if (std::regex_search(object, lines, std::regex("\"lines\"\\s*:\\s*\\[([^\\]]*)\\]"))) {
      std::istringstream numbers(std::regex_replace(lines[1].str(), std::regex(","), " "));
      for (int n = 0; numbers >> n;) {
        entry.lines.push_back(n);
      }
    }
    faults.push_back(entry);
  }
  return faults;
}

// Lines numbered as the compiler numbers them: a copy written by `dlfl instrument` starts
// with a few prologue lines ending in `#line 1 "..."`, after which numbering restarts.
std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("#line 1 ", 0) == 0) {
      lines.clear();
      continue;
    }
    lines.push_back(line);
  }
  return lines;
}

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  return begin == std::string::npos ? std::string() : s.substr(begin);
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

// The innermost preprocessor branch enclosing (1-based) `line`: its opening directive and
// whether `line` lies in the #if part (true) or the #else part (false).
struct Branch {
  std::string directive;
  bool in_if = true;
};

std::vector<Branch> branches_at(const std::vector<std::string>& lines, int line) {
  std::vector<Branch> stack;
  for (int i = 0; i < line - 1 && i < static_cast<int>(lines.size()); ++i) {
    const std::string t = trim(lines[static_cast<std::size_t>(i)]);
    if (t.rfind("#if", 0) == 0) {
      stack.push_back({t, true});
    } else if ((t.rfind("#else", 0) == 0 || t.rfind("#elif", 0) == 0) && !stack.empty()) {
      stack.back().in_if = false;
    } else if (t.rfind("#endif", 0) == 0 && !stack.empty()) {
      stack.pop_back();
    }
  }
  return stack;
}

TEST(FaultsJson, ListsAtLeastSixFaults) { EXPECT_GE(load_faults().size(), 6u); }

TEST(FaultsJson, EntriesAreCompleteAndIdsUnique) {
  const std::set<std::string> bug_types = {"tensor", "training", "model", "api", "numerics", "gpu"};
  std::set<std::string> ids;
  for (const FaultEntry& f : load_faults()) {
    SCOPED_TRACE(f.id);
    EXPECT_FALSE(f.id.empty());
    EXPECT_TRUE(ids.insert(f.id).second) << "duplicate id";
    EXPECT_EQ(bug_types.count(f.bug_type), 1u) << "unknown bug_type " << f.bug_type;
    EXPECT_FALSE(f.function.empty());
    EXPECT_FALSE(f.lines.empty());
    EXPECT_TRUE(std::filesystem::exists(kRoot / f.file)) << f.file;
  }
}

TEST(FaultsJson, LinesAreInsideTheirFaultBranch) {
  for (const FaultEntry& f : load_faults()) {
    const std::vector<std::string> lines = read_lines(kRoot / f.file);
    for (const int line : f.lines) {
      SCOPED_TRACE(f.id + " at " + f.file + ":" + std::to_string(line));
      ASSERT_GE(line, 1);
      ASSERT_LE(line, static_cast<int>(lines.size()));
      const std::string text = trim(lines[static_cast<std::size_t>(line - 1)]);
      EXPECT_FALSE(text.empty() || text[0] == '#') << "not a code line: " << text;
      const std::vector<Branch> stack = branches_at(lines, line);
      ASSERT_FALSE(stack.empty()) << "line is not inside any #if";
      EXPECT_EQ(stack.back().directive, "#if TENSORLITE_FAULT_" + upper(f.id));
      EXPECT_TRUE(stack.back().in_if) << "line is in the #else (correct) branch";
    }
  }
}

TEST(FaultsJson, EveryFaultMacroInTheSourcesIsListed) {
  std::set<std::string> listed;
  for (const FaultEntry& f : load_faults()) {
    listed.insert("TENSORLITE_FAULT_" + upper(f.id));
  }
  const std::regex macro("#if (TENSORLITE_FAULT_[A-Z0-9_]+)");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kRoot / "src")) {
    const std::string text = read_text(entry.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), macro);
         it != std::sregex_iterator(); ++it) {
      EXPECT_EQ(listed.count((*it)[1].str()), 1u)
          << (*it)[1].str() << " in " << entry.path() << " has no faults.json entry";
    }
  }
}

}  // namespace
