// Per-bug result tables: CSV rows (header-named or mapped by --columns) into BugResults.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

#include "bugset_io.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/compare_table.h"

namespace dlfl::eval {
namespace {

enum class Role { project, version, bug, technique, n_faulty, first_rank, rr, ap, other, ignored };

struct RoleName {
  Role role;
  std::string_view canonical;
  std::array<std::string_view, 3> aliases;  // "" = none
};

// Aliases cover the headers of the tables in Jahan et al.'s replication package
// (Project,Version,Bug_ID,Method,GTF,Top_Rank,MRR,MAP: per-bug rows, so MRR is one RR).
constexpr std::array<RoleName, 8> kRoles{{
    {Role::project, "project", {"", "", ""}},
    {Role::version, "version", {"", "", ""}},
    {Role::bug, "bug", {"bug_id", "bugid", "id"}},
    {Role::technique, "technique", {"method", "formula", ""}},
    {Role::n_faulty, "n_faulty", {"gtf", "", ""}},
    {Role::first_rank, "first_rank", {"top_rank", "", ""}},
    {Role::rr, "rr", {"mrr", "", ""}},
    {Role::ap, "ap", {"map", "", ""}},
}};

std::string lower(std::string_view text) {
  std::string out(detail::trim_blanks(text));
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

Role role_of(const std::string& name) {
  if (name.empty() || name == "-") return Role::ignored;
  for (const auto& r : kRoles)
    if (name == r.canonical || std::find(r.aliases.begin(), r.aliases.end(), name) != r.aliases.end())
      return r.role;
  return Role::other;
}

bool numeric_role(Role role) {
  return role == Role::n_faulty || role == Role::first_rank || role == Role::rr || role == Role::ap;
}

std::optional<double> parse_number(std::string_view cell) {
  cell = detail::trim_blanks(cell);
  if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  if (cell.empty() || ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

class TableParser {
 public:
  TableParser(const std::string& source, const ResultTableOptions& options)
      : source_(source), options_(options) {}

  ResultTable parse(std::string_view text) {
    const auto records = detail::parse_csv(text, source_);
    ResultTable table;
    if (records.empty()) throw Error(source_, 0, "empty table");
    std::size_t start = 0;
    if (options_.columns.empty()) {
      if (options_.no_header)
        throw Error(source_, 0, "a table without a header needs its columns named (--columns)");
      for (const auto& f : records[0].fields) names_.push_back(lower(f));
      start = 1;
    } else {
      for (const auto& c : options_.columns) names_.push_back(lower(c));
      if (!options_.no_header || looks_like_header(records[0])) start = 1;
    }
    table.header_skipped = start == 1;
    map_roles(records[0].line);
    resolve_filters(records[0].line);
    if (start == 1 && records[0].fields.size() != names_.size())
      throw Error(source_, records[0].line,
                  "header has " + std::to_string(records[0].fields.size()) + " columns, but " +
                      std::to_string(names_.size()) + " are named");
    for (std::size_t i = start; i < records.size(); ++i) {
      const auto& record = records[i];
      if (record.fields.size() != names_.size())
        throw Error(source_, record.line,
                    "row has " + std::to_string(record.fields.size()) + " fields, expected " +
                        std::to_string(names_.size()));
      if (!keep(record)) {
        ++table.filtered_out;
        continue;
      }
      table.results.push_back(row(record));
    }
    return table;
  }

 private:
  void map_roles(std::size_t line) {
    roles_.resize(names_.size());
    for (std::size_t i = 0; i < names_.size(); ++i) {
      roles_[i] = role_of(names_[i]);
      if (roles_[i] == Role::other || roles_[i] == Role::ignored) continue;
      for (std::size_t j = 0; j < i; ++j)
        if (roles_[j] == roles_[i])
          throw Error(source_, line, "columns '" + names_[j] + "' and '" + names_[i] + "' both name the " +
                                         std::string(canonical(roles_[i])) + " column");
    }
    if (!index_of(Role::bug))
      throw Error(source_, line, "no bug column (expected one named bug, bug_id or id)");
  }

  void resolve_filters(std::size_t line) {
    for (const auto& [column, value] : options_.filters) {
      const std::string name = lower(column);
      std::optional<std::size_t> index;
      for (std::size_t i = 0; i < names_.size() && !index; ++i)
        if (names_[i] == name || (roles_[i] != Role::other && canonical(roles_[i]) == name)) index = i;
      if (!index) throw Error(source_, line, "no column '" + column + "' to filter on");
      filters_.emplace_back(*index, value);
    }
  }

  // The first line of a --no-header table is a header after all when a numeric column
  // holds text (Top_Rank, MRR, ...): then one column mapping reads tables of both kinds.
  bool looks_like_header(const detail::CsvRecord& record) const {
    for (std::size_t i = 0; i < names_.size() && i < record.fields.size(); ++i)
      if (numeric_role(role_of(names_[i])) && !parse_number(record.fields[i])) return true;
    return false;
  }

  static std::string_view canonical(Role role) {
    for (const auto& r : kRoles)
      if (r.role == role) return r.canonical;
    return "";
  }

  std::optional<std::size_t> index_of(Role role) const {
    for (std::size_t i = 0; i < roles_.size(); ++i)
      if (roles_[i] == role) return i;
    return std::nullopt;
  }

  bool keep(const detail::CsvRecord& record) const {
    return std::all_of(filters_.begin(), filters_.end(), [&](const auto& f) {
      return detail::trim_blanks(record.fields[f.first]) == f.second;
    });
  }

  double number(const detail::CsvRecord& record, std::size_t i) const {
    const auto value = parse_number(record.fields[i]);
    if (!value)
      throw Error(source_, record.line,
                  names_[i] + " '" + record.fields[i] + "' is not a number");
    return *value;
  }

  BugResult row(const detail::CsvRecord& record) const {
    BugResult r;
    r.group = options_.group;
    r.technique = options_.technique;
    std::string project, bug;
    for (std::size_t i = 0; i < names_.size(); ++i) {
      const std::string_view cell = detail::trim_blanks(record.fields[i]);
      switch (roles_[i]) {
        case Role::project: project = cell; break;
        case Role::bug: bug = cell; break;
        case Role::technique: r.technique = cell; break;
        case Role::version:
        case Role::ignored: break;
        case Role::n_faulty: r.n_faulty = non_negative(record, i, "number of faulty elements"); break;
        case Role::first_rank: r.first_rank = non_negative(record, i, "first rank"); break;
        case Role::rr: r.rr = unit(record, i); break;
        case Role::ap: r.ap = unit(record, i); break;
        case Role::other:
          // Text columns (e.g. level, ties) are for filters; numbers may be metrics.
          if (const auto v = parse_number(cell)) r.extra[names_[i]] = *v;
          break;
      }
    }
    if (bug.empty()) throw Error(source_, record.line, "empty bug id");
    if (r.technique.empty()) throw Error(source_, record.line, "empty technique");
    r.bug = !project.empty() && bug.find('#') == std::string::npos ? project + "#" + bug : bug;
    return r;
  }

  double non_negative(const detail::CsvRecord& record, std::size_t i, const char* what) const {
    const double v = number(record, i);
    if (v < 0.0) throw Error(source_, record.line, std::string(what) + " " + record.fields[i] + " is negative");
    return v;
  }

  double unit(const detail::CsvRecord& record, std::size_t i) const {
    const double v = number(record, i);
    if (v < 0.0 || v > 1.0)
      throw Error(source_, record.line, names_[i] + " " + record.fields[i] + " is outside [0, 1]");
    return v;
  }

  const std::string& source_;
  const ResultTableOptions& options_;
  std::vector<std::string> names_;
  std::vector<Role> roles_;
  std::vector<std::pair<std::size_t, std::string>> filters_;
};

}  // namespace

ResultTable parse_result_table(std::string_view text, const std::string& source_name,
                               const ResultTableOptions& options) {
  return TableParser(source_name, options).parse(text);
}

ResultTable read_result_table(const std::filesystem::path& path, const ResultTableOptions& options) {
  return parse_result_table(detail::read_file_bytes(path, detail::kMaxTableBytes, "table"), path.string(), options);
}

}  // namespace dlfl::eval
