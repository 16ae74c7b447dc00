// CRLF line endings (backslash continuations end in CR LF too), a classic include guard,
// and macros that expand to statements, used as statements and as branches.
#ifndef REAL_CRLF_GUARDED_H
#define REAL_CRLF_GUARDED_H

#define CHECK_OR_RETURN(cond, value) \
  do {                               \
    if (!(cond)) return (value);     \
  } while (0)
#define SWAP_INTS(a, b) \
  {                     \
    const int t_ = (a); \
    (a) = (b);          \
    (b) = t_;           \
  }
#define FOR_EACH_INDEX(i, n) for (int i = 0; i < (n); ++i)

namespace real {

inline int guarded_div(int a, int b) {  //@ div divzero unitb
  CHECK_OR_RETURN(b != 0, 0);           //@ div divzero unitb
  return a / b;                         //@ div unitb
}

inline int sorted_pair_sum(int a, int b) {  //@ swap
  if (a > b) SWAP_INTS(a, b)                //@ swap
  int s = 0;                                //@ swap
  FOR_EACH_INDEX(i, b - a) {                //@ swap
    s += i;                                 //@ swap
  }
  return a * 10 + b + s;                    //@ swap
}

}  // namespace real

#endif  // REAL_CRLF_GUARDED_H
