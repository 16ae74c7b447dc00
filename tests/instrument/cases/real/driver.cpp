// Runs the scenarios of the real-code corpus, each in a dlfl_rt test bracket (not
// instrumented, but it includes the instrumented headers and instantiates their template).
#include <dlfl_rt/dlfl_rt.h>

#include <functional>
#include <map>
#include <string>

#include "bom_header.h"
#include "crlf_guarded.h"

namespace real {
int größe(int breite, int höhe);
int bindings();
int unit_b_entry(int x);
}  // namespace real

int main() {
  using namespace real;
  const std::map<std::string, std::function<int()>> scenarios = {
      {"clamp", [] { return clamp_add(1, 2); }},
      {"big", [] { return clamp_add(99, 50); }},
      {"tmpl", [] { return scaled(2) + static_cast<int>(scaled(2.0)); }},
      {"div", [] { return guarded_div(6, 3); }},
      {"divzero", [] { return guarded_div(1, 0) + 1; }},
      {"swap", [] { return sorted_pair_sum(5, 2); }},
      {"bytes", [] { return static_cast<int>(count_bytes("plain")) + 1; }},
      {"unicode", [] { return größe(2, 3); }},
      {"bind", [] { return bindings(); }},
      {"unitb", [] { return unit_b_entry(3); }},
  };
  int zero = 0;
  for (const auto& [name, run] : scenarios) {
    dlfl_rt_begin_test(name.c_str());
    zero += run() == 0;
    dlfl_rt_end_test(DLFL_RT_PASSED);
  }
  return zero;
}
