// A header that starts with a UTF-8 byte-order mark (before these slashes), `#pragma once`,
// included from both units and from the driver: the instrumented copy must keep the mark
// as its first bytes. Markers (slash slash at NAMES): see ../constructs.h.
#pragma once

#include <cstddef>
#include <string>

namespace real {

inline int clamp_add(int a, int b) {  //@ clamp big unitb
  const int s = a + b;                //@ clamp big unitb
  if (s > 100) return 100;            //@ clamp big unitb
  return s;                           //@ clamp unitb
}

// Instantiated only by the driver (as a test instantiates a library template).
template <typename T>
T scaled(T x) {                   //@ tmpl
  if constexpr (sizeof(T) > 4) {  //@ tmpl
    return x * T(3);              //@ tmpl
  } else {
    return x * T(2);              //@ tmpl
  }
}

std::size_t count_bytes(const std::string& s);

}  // namespace real
