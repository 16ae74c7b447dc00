// rewrite_schemata(): merges overlapping guards and writes each guarded place as a choice
// between the mutants' alternatives and the original code.
#include "schemata_text.h"

#include <algorithm>

namespace dlfl::mutate::detail {
namespace {

std::string_view switch_call(SwitchLanguage language) {
  return language == SwitchLanguage::c ? "dlfl_schemata_mutant()" : "::dlfl_schemata::mutant()";
}

// Guards that overlap: the outermost range and the edits inside it.
struct Cluster {
  std::uint64_t begin = 0, end = 0;
  bool statement = false;
  bool ragged = false;  // two guards overlap without one holding the other
  std::vector<const GuardedEdit*> members;
};

std::vector<Cluster> cluster_guards(std::vector<GuardedEdit>& edits) {
  std::sort(edits.begin(), edits.end(), [](const GuardedEdit& a, const GuardedEdit& b) {
    if (a.guard_begin != b.guard_begin) return a.guard_begin < b.guard_begin;
    if (a.guard_end != b.guard_end) return a.guard_end > b.guard_end;
    return a.number < b.number;
  });
  std::vector<Cluster> out;
  for (const GuardedEdit& e : edits) {
    if (!out.empty() && e.guard_begin < out.back().end) {
      Cluster& c = out.back();
      if (e.guard_end > c.end) {
        c.ragged = true;
        c.end = e.guard_end;
      }
      c.members.push_back(&e);
      continue;
    }
    // Sorted by begin, then longest first: the first guard of a cluster is its outermost.
    out.push_back({e.guard_begin, e.guard_end, e.statement, false, {&e}});
  }
  return out;
}

// The guarded code with the member's edit applied; false when the edit is not inside the
// guard or the file does not hold its original text there.
bool alternative_text(const std::string& original, const Cluster& c, const GuardedEdit& e, std::string& out) {
  if (e.offset < c.begin || e.offset + e.original.size() > c.end) return false;
  if (original.compare(e.offset, e.original.size(), e.original) != 0) return false;
  out = original.substr(c.begin, e.offset - c.begin) + e.replacement +
        original.substr(e.offset + e.original.size(), c.end - e.offset - e.original.size());
  return true;
}

std::string line_directive(std::size_t line, std::string_view path) {
  std::string quoted;
  for (const char ch : path) {
    if (ch == '\\' || ch == '"') quoted += '\\';
    quoted += ch;
  }
  return "#line " + std::to_string(line) + " \"" + quoted + "\"\n";
}

}  // namespace

std::string schemata_prologue(std::string_view switch_variable, std::string_view original_path,
                              SwitchLanguage language) {
  std::string p;
  if (language == SwitchLanguage::c) {
    // C89 too (block comments, declarations first), and -pedantic: an attribute is no
    // extension it warns about. Own include guard: a C++ file may include a C-switched
    // header.
    p += "#ifndef DLFL_SCHEMATA_SWITCH_C_\n#define DLFL_SCHEMATA_SWITCH_C_\n#include <stdlib.h>\n";
    p += "/* The active mutant: " + std::string(switch_variable) + ", read once (unset or 0: none). */\n";
    p += "#if defined(__GNUC__)\n__attribute__((unused))\n#endif\n";
    p += "static long dlfl_schemata_mutant(void) {\n";
    p += "  static int read = 0;\n  static long active = 0;\n";
    p += "  if (!read) {\n    const char* v = getenv(\"" + std::string(switch_variable) + "\");\n";
    p += "    active = v ? strtol(v, 0, 10) : 0L;\n    read = 1;\n  }\n  return active;\n}\n#endif\n";
    p += line_directive(1, original_path);
    return p;
  }
  p += "#ifndef DLFL_SCHEMATA_SWITCH_\n#define DLFL_SCHEMATA_SWITCH_\n#include <cstdlib>\n";
  p += "namespace dlfl_schemata {\n";
  p += "// The active mutant: " + std::string(switch_variable) + ", read once (unset or 0: none).\n";
  p += "inline long mutant() noexcept {\n";
  p += "  static const long active = [] {\n";
  p += "    const char* v = std::getenv(\"" + std::string(switch_variable) + "\");\n";
  p += "    return v ? std::strtol(v, nullptr, 10) : 0L;\n";
  p += "  }();\n  return active;\n}\n}  // namespace dlfl_schemata\n#endif\n";
  p += line_directive(1, original_path);
  return p;
}

SchemataText rewrite_schemata(const std::string& original, std::string_view original_path,
                              std::vector<GuardedEdit> edits, std::string_view switch_variable,
                              SwitchLanguage language) {
  SchemataText out;
  out.text = schemata_prologue(switch_variable, original_path, language);
  std::size_t copied = 0;  // original bytes [0, copied) are in out.text
  for (const Cluster& c : cluster_guards(edits)) {
    std::vector<std::pair<const GuardedEdit*, std::string>> alternatives;
    for (const GuardedEdit* e : c.members) {
      std::string text;
      if (c.ragged || c.end > original.size() || !alternative_text(original, c, *e, text)) {
        out.unguardable.push_back(e->number);
        continue;
      }
      alternatives.emplace_back(e, std::move(text));
    }
    if (alternatives.empty()) continue;
    std::sort(alternatives.begin(), alternatives.end(),
              [](const auto& a, const auto& b) { return a.first->number < b.first->number; });
    out.text.append(original, copied, c.begin - copied);
    const std::size_t cluster_begin = out.text.size();
    // Code that spans lines starts each copy on its own line, numbered as the original's
    // first line, so that __LINE__ and diagnostics in every copy read as in the original.
    const bool spans_lines = std::any_of(alternatives.begin(), alternatives.end(),
                                         [](const auto& a) { return a.second.find('\n') != std::string::npos; }) ||
                             original.find('\n', c.begin) < c.end;
    std::string renumber;
    if (spans_lines) {
      const auto line = static_cast<std::size_t>(
          std::count(original.begin(), original.begin() + static_cast<std::ptrdiff_t>(c.begin), '\n'));
      renumber = "\n" + line_directive(line + 1, original_path);
    }
    out.text += c.statement ? "{ " : "(";
    for (const auto& [e, text] : alternatives) {
      const std::size_t begin = out.text.size();
      const std::string test = std::string(switch_call(language)) + " == " + std::to_string(e->number);
      out.text += c.statement ? "if (" + test + ") { " + renumber + text + " } else "
                              : test + " ? (" + renumber + text + ") : ";
      out.alternative[e->number] = {begin, out.text.size()};
    }
    out.text += c.statement ? "{" : "(";
    out.text += renumber;
    out.text.append(original, c.begin, c.end - c.begin);
    out.text += c.statement ? " }}" : "))";
    for (const auto& [e, text] : alternatives) out.cluster[e->number] = {cluster_begin, out.text.size()};
    copied = c.end;
  }
  out.text.append(original, copied);
  return out;
}

}  // namespace dlfl::mutate::detail
