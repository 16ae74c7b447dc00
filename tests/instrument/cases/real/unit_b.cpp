// Translation unit B, with a byte-order mark AND CRLF line endings: includes the same
// headers as unit A, so their probes are planned twice and must be merged.
#include "bom_header.h"
#include "crlf_guarded.h"

namespace real {

int unit_b_entry(int x) {  //@ unitb
  int r = clamp_add(x, 1);  //@ unitb
  r += guarded_div(r, 2);   //@ unitb
  return r;                 //@ unitb
}

}  // namespace real
