// Roff for dlfl's man pages (man_pages.h), following man-pages(7): NAME, SYNOPSIS,
// DESCRIPTION, COMMANDS, OPTIONS, SEE ALSO.
#include "man_pages.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "cli_support.h"

namespace dlfl::cli {
namespace {

namespace fs = std::filesystem;

bool word_char(unsigned char c) { return std::isalnum(c) != 0 || c == '_'; }

// Text as roff prints it literally: backslashes escaped, a dash that starts a word (an
// option, a negative number) as \- so that it stays an ASCII minus when copied, UTF-8
// characters as \[uXXXX] (groff's portable form), no line starting with a control
// character.
std::string roff(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-' && (i == 0 || !word_char(static_cast<unsigned char>(text[i - 1])))) {
      out += "\\-";
    } else if (c >= 0x80) {
      // Decode one UTF-8 sequence (CLI11 strings are UTF-8); a stray byte becomes U+FFFD.
      const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
      unsigned code = extra == 3 ? c & 0x07u : extra == 2 ? c & 0x0Fu : c & 0x1Fu;
      bool ok = extra > 0 && i + static_cast<std::size_t>(extra) < text.size();
      for (int k = 1; ok && k <= extra; ++k) {
        const auto next = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
        ok = (next & 0xC0u) == 0x80u;
        code = (code << 6) | (next & 0x3Fu);
      }
      if (!ok) code = 0xFFFD;
      else i += static_cast<std::size_t>(extra);
      char buffer[16];
      std::snprintf(buffer, sizeof buffer, "\\[u%04X]", code);
      out += buffer;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// A page or command name: every dash as \-, so that `dlfl-rank` copied from the page or
// searched for (man -k) is the ASCII name, never a hyphen.
std::string roff_name(const std::string& name) {
  std::string out;
  for (const char c : roff(name)) out += c == '-' && (out.empty() || out.back() != '\\') ? std::string("\\-") : std::string(1, c);
  return out;
}

// A line of running text: one that would start with . or ' is a request otherwise.
std::string text_line(const std::string& text) {
  const std::string escaped = roff(text);
  return (!escaped.empty() && (escaped[0] == '.' || escaped[0] == '\'') ? "\\&" : "") + escaped + "\n";
}

// Each line of a --help text as a line of its own (roff would fill them into one).
void paragraph(std::ostream& out, const std::string& text) {
  std::istringstream lines(text);
  bool first = true;
  for (std::string line; std::getline(lines, line);) {
    if (!first) out << ".br\n";
    out << text_line(line);
    first = false;
  }
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}

void option_entry(std::ostream& out, const OptionInfo& o) {
  out << ".TP\n";
  if (o.positional.empty()) {
    std::string names;
    for (const auto& name : o.names) names += (names.empty() ? "" : ", ") + ("\\fB" + roff(name) + "\\fR");
    out << names;
  } else {
    out << "\\fI" << roff(o.positional) << "\\fR";
  }
  // --help's own words for the value: its type and choices, default, REQUIRED.
  if (!o.details.empty()) out << " \\fI" << roff(o.details) << "\\fR";
  out << "\n";
  paragraph(out, o.description);
}

void synopsis(std::ostream& out, const CommandInfo& c) {
  out << ".SH SYNOPSIS\n.B " << roff(c.command_line()) << "\n";
  std::string line;
  if (!c.options.empty()) line += "[\\fIOPTIONS\\fR]";
  for (const auto& p : c.positionals) {
    const std::string name = "\\fI" + roff(p.positional) + "\\fR" + (p.repeatable ? " ..." : "");
    line += (line.empty() ? "" : " ") + (p.required ? name : "[" + name + "]");
  }
  if (!c.subcommands.empty()) line += (line.empty() ? "" : " ") + std::string("\\fICOMMAND\\fR [\\fIARGS\\fR]");
  if (!line.empty()) out << line << "\n";
}

void commands_section(std::ostream& out, const CommandInfo& c) {
  if (c.subcommands.empty()) return;
  out << ".SH COMMANDS\n";
  std::vector<std::string> groups;
  for (const auto& sub : c.subcommands)
    if (std::find(groups.begin(), groups.end(), sub.group) == groups.end()) groups.push_back(sub.group);
  for (const auto& group : groups) {
    if (groups.size() > 1) out << ".SS " << text_line(group);
    for (const auto& sub : c.subcommands) {
      if (sub.group != group) continue;
      out << ".TP\n\\fB" << roff(sub.path.back()) << "\\fR\n" << text_line(sub.summary());
      out << "See \\fB" << roff_name(sub.page_name()) << "\\fR(1).\n";
    }
  }
}

void options_section(std::ostream& out, const CommandInfo& c) {
  if (!c.positionals.empty()) {
    out << ".SH ARGUMENTS\n";
    for (const auto& p : c.positionals) option_entry(out, p);
  }
  if (c.options.empty()) return;
  out << ".SH OPTIONS\n";
  std::vector<std::string> groups;
  for (const auto& o : c.options)
    if (std::find(groups.begin(), groups.end(), o.group) == groups.end()) groups.push_back(o.group);
  for (const auto& group : groups) {
    if (group != "Options") out << ".SS " << text_line(group);
    for (const auto& o : c.options)
      if (o.group == group) option_entry(out, o);
  }
}

void see_also(std::ostream& out, const CommandInfo& c, const CommandInfo& root) {
  std::vector<std::string> pages;
  if (!c.path.empty()) pages.push_back("dlfl");
  // Its parents and its own subcommands (for dlfl itself: every command).
  const auto starts_with = [](const std::vector<std::string>& path, const std::vector<std::string>& prefix) {
    return prefix.size() <= path.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
  };
  for (const CommandInfo* other : all_commands(root))
    if (!other->path.empty() && other != &c && (starts_with(other->path, c.path) || starts_with(c.path, other->path)))
      pages.push_back(other->page_name());
  if (pages.empty()) return;
  out << ".SH SEE ALSO\n";
  for (std::size_t i = 0; i < pages.size(); ++i)
    out << ".BR " << roff(pages[i]) << " (1)" << (i + 1 < pages.size() ? "," : "") << "\n";
}

}  // namespace

std::string man_page(const CommandInfo& c, const CommandInfo& root, const std::string& version) {
  std::ostringstream out;
  out << ".\\\" Generated by `dlfl --generate-man-pages` from dlfl's command-line definitions; do not edit.\n";
  out << ".TH \"" << roff_name(upper(c.page_name())) << "\" 1 \"\" \"" << roff(version) << "\" \"dlfl manual\"\n";
  out << ".SH NAME\n" << roff_name(c.page_name()) << " \\- " << roff(c.summary()) << "\n";
  synopsis(out, c);
  out << ".SH DESCRIPTION\n";
  paragraph(out, c.description);
  commands_section(out, c);
  options_section(out, c);
  if (c.path.empty()) {
    out << ".SH EXIT STATUS\n0: success; 1: a runtime failure; 2: bad input or usage (one line on stderr names the "
           "file or option).\n";
  }
  see_also(out, c, root);
  return out.str();
}

void write_man_pages(const CommandInfo& root, const std::string& version, const fs::path& dir) {
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".1") fs::remove(entry.path());
  for (const CommandInfo* c : all_commands(root)) {
    const std::string page = man_page(*c, root, version);
    write_output((dir / (c->page_name() + ".1")).string(), [&](std::ostream& out) { out << page; });
  }
}

}  // namespace dlfl::cli
