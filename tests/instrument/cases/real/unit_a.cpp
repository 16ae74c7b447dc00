// Translation unit A: non-ASCII identifiers and string literals, structured bindings.
#include <map>
#include <string>
#include <utility>

#include "bom_header.h"
#include "crlf_guarded.h"

namespace real {

std::size_t count_bytes(const std::string& s) {  //@ bytes unicode
  std::size_t n = 0;                             //@ bytes unicode
  for (const char c : s)                         //@ bytes unicode
    if (static_cast<unsigned char>(c) >= 0x80) ++n;  //@ bytes unicode
  return n;                                      //@ bytes unicode
}

int größe(int breite, int höhe) {                      //@ unicode
  const std::string grüße = "Grüße, naïve café – ✓";  //@ unicode
  return breite * höhe + static_cast<int>(count_bytes(grüße));  //@ unicode
}

int bindings() {                                     //@ bind
  const std::map<std::string, int> m{{"a", 1}, {"b", 2}};  //@ bind
  int sum = 0;                                       //@ bind
  for (const auto& [key, value] : m) sum += value;   //@ bind
  auto [lo, hi] = std::pair{3, 4};                   //@ bind
  return sum + lo * hi;                              //@ bind
}

}  // namespace real
