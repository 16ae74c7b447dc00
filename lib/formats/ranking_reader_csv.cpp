// Reads dlfl's ranking CSV back: header-named columns, one ranking per formula.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "dlfl/csv_field.h"
#include "dlfl/error.h"
#include "dlfl/files/text_file.h"
#include "ranking_reader_text.h"

namespace dlfl::io::detail {

CsvRecordReader::CsvRecordReader(std::string_view text, const std::string& source)
    : text_(text), source_(source) {
  text_ = without_bom(text_);
}

bool CsvRecordReader::next(std::vector<std::string>& fields) {
  fields.clear();
  // Blank lines between records carry nothing (a trailing newline leaves one at the end).
  while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }
  if (pos_ >= text_.size()) return false;
  record_line_ = line_;
  std::string field;
  while (true) {
    if (pos_ < text_.size() && text_[pos_] == '"') {
      const std::size_t open_line = line_;
      ++pos_;
      while (true) {
        if (pos_ >= text_.size()) throw Error(source_, open_line, "quoted field is never closed");
        const char c = text_[pos_++];
        if (c == '"') {
          if (pos_ < text_.size() && text_[pos_] == '"') {
            field.push_back('"');
            ++pos_;
            continue;
          }
          break;
        }
        if (c == '\n') ++line_;
        field.push_back(c);
        if (field.size() > kMaxFieldBytes) check_field_size(field.size(), "quoted field", source_, open_line);
      }
      if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' &&
          !(text_[pos_] == '\r' && (pos_ + 1 == text_.size() || text_[pos_ + 1] == '\n')))
        throw Error(source_, line_, "text after a closing quote (a quote inside a field is written \"\")");
    } else {
      const std::size_t end = std::min(text_.find_first_of(",\n", pos_), text_.size());
      check_field_size(end - pos_, "field", source_, line_);
      field.assign(text_.substr(pos_, end - pos_));
      pos_ = end;
      if (!field.empty() && field.back() == '\r' && (pos_ >= text_.size() || text_[pos_] == '\n'))
        field.pop_back();
    }
    if (without_formula_guard(field).size() != field.size()) field.erase(0, 1);
    fields.push_back(std::move(field));
    field.clear();
    if (pos_ >= text_.size()) return true;
    if (text_[pos_] == '\r') ++pos_;
    if (pos_ >= text_.size()) return true;
    if (text_[pos_] == '\n') {
      ++pos_;
      ++line_;
      return true;
    }
    ++pos_;  // the ','
  }
}

namespace {

std::string lower_trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  text = text.substr(first, text.find_last_not_of(" \t") - first + 1);
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Where each known column sits in the header; nullopt when absent.
struct Columns {
  std::optional<std::size_t> formula, element, file, line, last_line, function, kind, score, ef, ep;
};

Columns find_columns(const std::vector<std::string>& header, const std::string& source,
                     std::size_t line) {
  Columns c;
  const std::map<std::string, std::optional<std::size_t>*> known{
      {"formula", &c.formula}, {"element", &c.element},   {"file", &c.file}, {"line", &c.line},
      {"last_line", &c.last_line}, {"function", &c.function}, {"kind", &c.kind}, {"score", &c.score},
      {"ef", &c.ef},           {"ep", &c.ep}};
  for (std::size_t i = 0; i < header.size(); ++i) {
    const auto it = known.find(lower_trimmed(header[i]));
    if (it == known.end()) continue;
    if (*it->second) throw Error(source, line, "column '" + it->first + "' appears twice in the header");
    *it->second = i;
  }
  if (!c.element || !c.score)
    throw Error(source, line,
                std::string("header lacks the '") + (c.element ? "score" : "element") +
                    "' column (expected [formula,]rank,rank_best,rank_worst,element,file,line,"
                    "function,kind,score)");
  return c;
}

}  // namespace

std::vector<ReadRanking> parse_csv_rankings(std::string_view text, const std::string& source) {
  CsvRecordReader reader(text, source);
  std::vector<std::string> fields;
  if (!reader.next(fields)) throw Error(source, 0, "empty file: no CSV header");
  const std::size_t width = fields.size();
  const Columns col = find_columns(fields, source, reader.line_number());
  // Formulas keep the order in which they first appear.
  std::vector<ReadRanking> rankings;
  std::map<std::string, std::size_t, std::less<>> index_of;
  while (reader.next(fields)) {
    const std::size_t line = reader.line_number();
    if (fields.size() != width)
      throw Error(source, line,
                  "row has " + std::to_string(fields.size()) + " fields, the header " +
                      std::to_string(width));
    const std::string& name = fields[*col.element];
    if (name.empty()) throw Error(source, line, "empty element name");
    ScoredElement e;
    const std::string kind = col.kind ? lower_trimmed(fields[*col.kind]) : std::string();
    if (kind != "" && kind != "code" && kind != "extrinsic")
      throw Error(source, line, "kind '" + excerpt(fields[*col.kind]) + "' is neither code nor extrinsic");
    if (kind == "extrinsic") {
      e.key = name;  // a condition such as device=cuda: no file, so it matches no fault
    } else if (col.file) {
      e.key = name;
      e.file = fields[*col.file];
      if (col.function) e.function = fields[*col.function];
      if (col.line) e.first_line = parse_line_field(fields[*col.line], source, line);
      if (col.last_line) e.last_line = parse_line_field(fields[*col.last_line], source, line);
    } else {
      e = element_from_name(name);
    }
    e.score = parse_score_field(fields[*col.score], source, line);
    // ef/ep (dlfl rank writes them): an element no test ran is not executed.
    if (col.ef && col.ep) {
      const double ef = parse_score_field(fields[*col.ef], source, line);
      const double ep = parse_score_field(fields[*col.ep], source, line);
      if (!(ef >= 0) || !(ep >= 0)) throw Error(source, line, "ef and ep must be non-negative numbers");
      e.executed = ef + ep > 0;
    }
    const std::string formula = col.formula ? fields[*col.formula] : std::string();
    auto [it, added] = index_of.try_emplace(formula, rankings.size());
    if (added) rankings.push_back({formula, {}});
    rankings[it->second].elements.push_back(std::move(e));
  }
  return rankings;
}

}  // namespace dlfl::io::detail
