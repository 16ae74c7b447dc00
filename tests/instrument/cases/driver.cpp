// Runs the scenarios of constructs.cpp, each inside a dlfl_rt test bracket (not instrumented).
#include <dlfl_rt/dlfl_rt.h>

#include <cstring>
#include <functional>
#include <map>
#include <string>

int early(int);
int loops(int);
int fallthrough(int);
int exceptions(bool);
int lambdas(int);
int templates();
int constexprs(int);
int if_constexpr();
int objects();

int main() {
  const std::map<std::string, std::function<int()>> scenarios = {
      {"early", [] { return early(0); }},         {"late", [] { return early(4); }},
      {"loop", [] { return loops(5); }},          {"sw10", [] { return fallthrough(10); }},
      {"sw11", [] { return fallthrough(11); }},   {"swdef", [] { return fallthrough(3); }},
      {"throw", [] { return exceptions(true); }}, {"nothrow", [] { return exceptions(false); }},
      {"lambda", [] { return lambdas(2); }},      {"tmpl", [] { return templates(); }},
      {"cexpr", [] { return constexprs(2); }},    {"ifcx", [] { return if_constexpr(); }},
      {"ctor", [] { return objects(); }},
  };
  int sink = 0;
  for (const auto& [name, run] : scenarios) {
    dlfl_rt_begin_test(name.c_str());
    sink += run();
    dlfl_rt_end_test(DLFL_RT_PASSED);
  }
  return sink == 0 ? 1 : 0;
}
