// Header part of the instrumenter's semantic fixture: a template, constexpr, consteval and
// macros. A trailing marker comment (slash slash at NAMES) lists the scenarios that must
// cover a line (`-`: none); a `|block NAMES` part overrides it for basic-block probes.
// See constructs_test.cpp.
#pragma once

#include <vector>

#define RETURN_IF_NEGATIVE(x) \
  do {                        \
    if ((x) < 0) return -1;   \
  } while (0)
#define SQUARE(x) ((x) * (x))

template <typename T>
T total(const std::vector<T>& values) {  //@ tmpl
  T sum{};                               //@ tmpl
  for (const T& v : values) sum += v;    //@ tmpl
  return sum;                            //@ tmpl
}

constexpr int triple(int x) {  //@ cexpr
  return 3 * x;                //@ cexpr
}

consteval int cube(int x) { return x * x * x; }

template <typename T>
int kind_of() {                        //@ ifcx
  if constexpr (sizeof(T) == 1) {      //@ ifcx
    return 1;                          //@ -
  } else {
    return 2;                          //@ ifcx
  }
}
