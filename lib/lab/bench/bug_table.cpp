// Writing the per-bug CSV (include/dlfl/lab/bench/bug_table.h).
#include "dlfl/lab/bench/bug_table.h"

#include <fmt/format.h>

#include "dlfl/csv_field.h"

namespace dlfl::bench {
namespace {

// Line breaks become spaces: `dlfl compare` reads the table a line at a time.
std::string cell(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return csv_field(text);
}

// Shortest text that reads back as the same double.
std::string number(double value) { return fmt::format("{}", value); }

}  // namespace

void write_bug_table(std::ostream& out, std::span<const FaultRecord> records, const std::vector<std::uint64_t>& top_n) {
  out << "project,bug,technique,group,kind,bug_type,operator,file,line,function,n_faulty,first_rank,"
         "first_rank_best,first_rank_worst,rr,ap,exam";
  for (const auto n : top_n) out << ",top" << n;
  out << ",elements,tests,failing\n";
  for (const auto& r : records) {
    if (!r.kept) continue;
    for (const auto& f : r.results) {
      out << cell(r.subject) << ',' << cell(r.key()) << ',' << cell(f.formula) << ',' << r.group << ',' << r.kind << ','
          << r.bug_type << ',' << cell(r.op) << ',' << cell(r.file) << ',' << r.line << ',' << cell(r.function) << ','
          << r.faulty_count() << ',' << number(f.first_rank) << ',' << number(f.first_rank_best) << ','
          << number(f.first_rank_worst) << ',' << number(f.rr) << ',' << number(f.ap) << ',' << number(f.exam);
      for (std::size_t i = 0; i < top_n.size(); ++i) out << ',' << number(i < f.top.size() ? f.top[i] : 0.0);
      out << ',' << r.elements << ',' << r.tests << ',' << r.failing << '\n';
    }
  }
}

void write_discarded_table(std::ostream& out, std::span<const FaultRecord> records) {
  out << "project,bug,bug_type,operator,file,line,reason,detail,tail\n";
  for (const auto& r : records)
    if (!r.kept)
      out << cell(r.subject) << ',' << cell(r.key()) << ',' << r.bug_type << ',' << cell(r.op) << ',' << cell(r.file)
          << ',' << r.line << ',' << cell(r.reason) << ',' << cell(r.detail) << ',' << cell(r.tail) << '\n';
}

}  // namespace dlfl::bench
