// Reading the CLI11 app into CommandInfo (command_tree.h).
#include "command_tree.h"

#include <algorithm>

#include "dlfl/formula.h"

namespace dlfl::cli {
namespace {

// CLI11 shows an option's accepted values as "{a,b,c}" (IsMember) or "value in
// {a->x,b->y} OR {x,y}" (CheckedTransformer) in its type name: the first set's names.
std::vector<std::string> choices_of(const std::string& type_name) {
  const auto open = type_name.find('{');
  const auto close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  std::vector<std::string> choices;
  const std::string set = type_name.substr(open + 1, close - open - 1);
  for (std::size_t start = 0; start <= set.size();) {
    auto end = set.find(',', start);
    if (end == std::string::npos) end = set.size();
    std::string item = set.substr(start, end - start);
    if (const auto arrow = item.find("->"); arrow != std::string::npos) item.resize(arrow);
    if (!item.empty()) choices.push_back(item);
    start = end + 1;
  }
  return choices;
}

// Numbers and durations have nothing to complete; everything else free-form is a path.
bool numeric(const std::string& value_name) {
  for (const char* kind : {"INT", "UINT", "FLOAT", "NUMBER", "POSITIVE", "NONNEGATIVE"})
    if (value_name.rfind(kind, 0) == 0) return true;
  return false;
}

OptionInfo read_option(const CLI::App& app, const CLI::Option& opt) {
  OptionInfo o;
  for (const auto& s : opt.get_snames()) o.names.push_back("-" + s);
  for (const auto& l : opt.get_lnames()) o.names.push_back("--" + l);
  if (o.names.empty()) o.positional = opt.get_name();
  o.description = opt.get_description();
  o.group = opt.get_group();
  o.takes_value = opt.get_type_size() != 0;
  o.required = opt.get_required();
  o.repeatable = opt.get_expected_max() == CLI::detail::expected_max_vector_size;
  // The app's formatter when it is CLI11's (it is: dlfl sets none), so the words are --help's.
  static const CLI::Formatter default_formatter;
  const auto* formatter = dynamic_cast<const CLI::Formatter*>(app.get_formatter().get());
  o.details = (formatter ? *formatter : default_formatter).make_option_opts(&opt);
  if (const auto first = o.details.find_first_not_of(' '); first != std::string::npos) o.details.erase(0, first);
  const std::string type_name = opt.get_type_name();
  o.value_name = type_name.substr(0, type_name.find(':'));
  o.choices = choices_of(type_name);
  const bool formula = std::find(o.names.begin(), o.names.end(), "--formula") != o.names.end();
  if (formula && o.choices.empty()) o.choices = formula_names();
  if (!o.choices.empty())
    o.value_kind = ValueKind::choices;
  else if (numeric(o.value_name))
    o.value_kind = ValueKind::none;
  return o;
}

CommandInfo read_command(const CLI::App& app, std::vector<std::string> path) {
  CommandInfo c;
  c.path = std::move(path);
  c.description = app.get_description();
  c.group = c.path.empty() ? std::string() : app.get_group();
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // CLI11's hidden options
    OptionInfo o = read_option(app, *opt);
    (o.positional.empty() ? c.options : c.positionals).push_back(std::move(o));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;  // hidden
    auto sub_path = c.path;
    sub_path.push_back(sub->get_name());
    c.subcommands.push_back(read_command(*sub, std::move(sub_path)));
  }
  return c;
}

void collect(const CommandInfo& c, std::vector<const CommandInfo*>& out) {
  out.push_back(&c);
  for (const auto& sub : c.subcommands) collect(sub, out);
}

}  // namespace

std::string CommandInfo::command_line() const {
  std::string line = "dlfl";
  for (const auto& name : path) line += " " + name;
  return line;
}

std::string CommandInfo::page_name() const {
  std::string name = "dlfl";
  for (const auto& part : path) name += "-" + part;
  return name;
}

std::string CommandInfo::summary() const { return description.substr(0, description.find('\n')); }

std::vector<std::string> formula_names() {
  std::vector<std::string> names;
  for (const auto& f : builtin_formulas()) names.emplace_back(f.name);
  return names;
}

CommandInfo read_command_tree(const CLI::App& app) { return read_command(app, {}); }

std::vector<const CommandInfo*> all_commands(const CommandInfo& root) {
  std::vector<const CommandInfo*> out;
  collect(root, out);
  return out;
}

}  // namespace dlfl::cli
