// The instrumenter's semantic fixture: one function per construct; driver.cpp (not
// instrumented) runs each scenario inside a dlfl_rt test bracket.
#include "constructs.h"

#include <stdexcept>
#include <string>

static_assert(triple(2) == 6, "constant evaluation must survive the probes");
static_assert(cube(2) == 8);

int early(int x) {                //@ early late
  RETURN_IF_NEGATIVE(x);          //@ early late
  if (x == 0) return 0;           //@ early late
  int y = SQUARE(x);              //@ late
  return y;                       //@ late
}

int loops(int n) {                //@ loop
  int s = 0;                      //@ loop
  for (int i = 0; i < n; ++i)     //@ loop
    s += i;                       //@ loop
  std::vector<int> v{1, 2, 3};    //@ loop
  for (int x : v) {               //@ loop
    s += x;                       //@ loop
  }
  while (s > 10) s -= 10;         //@ loop
  do                              //@ loop
    ++s;                          //@ loop
  while (s < 3);
  return s;                       //@ loop
}

int fallthrough(int x) {          //@ sw10 sw11 swdef
  int r = 0;                      //@ sw10 sw11 swdef
  switch (x) {                    //@ sw10 sw11 swdef
    case 10:
      r += 1;                     //@ sw10
      [[fallthrough]];
    case 11: r += 2; break;       //@ sw10 sw11
    default:
      r = -1;                     //@ swdef
      break;                      //@ swdef
  }
  return r;                       //@ sw10 sw11 swdef
}

static void may_throw(bool yes) {  //@ throw nothrow
  if (yes) throw std::runtime_error("thrown");  //@ throw nothrow
}

int exceptions(bool yes) {        //@ throw nothrow
  try {                           //@ throw nothrow
    may_throw(yes);               //@ throw nothrow
    return 1;                     //@ nothrow |block throw nothrow
  } catch (const std::exception& e) {
    return 2;                     //@ throw
  }
}

int lambdas(int x) {              //@ lambda
  auto add = [x](int y) {         //@ lambda
    return x + y;                 //@ lambda
  };
  auto unused = [](int y) {       //@ lambda
    return y * 2;                 //@ -
  };
  constexpr auto twice = [](int y) { return 2 * y; };  //@ -
  static_assert(twice(3) == 6);
  return add(1) + static_cast<int>(sizeof(unused));  //@ lambda
}

int templates() {                 //@ tmpl
  return static_cast<int>(total(std::vector<int>{1, 2}) + total(std::vector<double>{0.5}));  //@ tmpl
}

int constexprs(int x) {           //@ cexpr
  return triple(x) + cube(3);    //@ cexpr
}

int if_constexpr() {              //@ ifcx
  return kind_of<int>() + kind_of<double>();  //@ ifcx
}

struct Widget {
  Widget() {}                     //@ ctor
  ~Widget() { ++destroyed; }      //@ ctor
  static inline int destroyed = 0;
};

int objects() {                   //@ ctor
  Widget w;                       //@ ctor
  return Widget::destroyed;       //@ ctor
}
