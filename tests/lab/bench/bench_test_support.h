// Shared pieces of the bench tests: fault records made by hand.
#pragma once

#include <string>

#include "dlfl/lab/bench/fault_record.h"

namespace dlfl::bench::testing {

// A kept fault with one result per formula; `rank` is the first rank under ochiai,
// dstar2 gets rank + 1.
inline FaultRecord kept_fault(const std::string& subject, const std::string& id, const std::string& bug_type,
                              double rank, std::size_t elements = 100) {
  FaultRecord r;
  r.subject = subject;
  r.fault = id;
  r.kind = subject == "confeval" ? "traditional" : "dl";
  r.bug_type = bug_type;
  r.group = bug_type == "traditional" ? "traditional" : "dl";
  r.op = bug_type == "traditional" ? "relational_replace" : "swap_dims";
  r.file = "src/a, b.cpp";  // a comma: the CSV must quote it
  r.line = r.end_line = 12;
  r.function = "ns::f";
  r.faulty_lines = {12};
  r.kept = true;
  r.tests = 40;
  r.failing = 3;
  r.elements = elements;
  r.seconds = 1.5;
  for (const char* formula : {"ochiai", "dstar2"}) {
    FormulaResult f;
    f.formula = formula;
    f.found = true;
    f.first_rank = f.first_rank_best = f.first_rank_worst = rank + (f.formula == "dstar2");
    f.exam = f.first_rank / static_cast<double>(elements);
    f.rr = f.ap = 1.0 / f.first_rank;
    for (const double n : {1.0, 3.0, 5.0, 10.0}) f.top.push_back(f.first_rank <= n ? 1.0 : 0.0);
    r.results.push_back(f);
  }
  return r;
}

inline FaultRecord discarded_fault(const std::string& subject, const std::string& id, const std::string& reason) {
  FaultRecord r;
  r.subject = subject;
  r.fault = id;
  r.kind = "dl";
  r.group = "traditional";
  r.bug_type = "traditional";
  r.op = "delete_statement";
  r.file = "src/x.cpp";
  r.line = r.end_line = 3;
  r.kept = false;
  r.reason = reason;
  return r;
}

}  // namespace dlfl::bench::testing
