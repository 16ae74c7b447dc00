// C++ fixture for the call graph extractor: virtual dispatch, templates, lambdas,
// constructors, function pointers and std::function.
#include <functional>

namespace ns {

int helper(int x) { return x + 1; }
double helper(double x) { return x * 2; }

struct Base {
  virtual ~Base() = default;
  virtual int run(int x) = 0;
};
struct A : Base {
  int run(int x) override { return helper(x); }
};
struct B : A {
  int run(int x) override { return x; }
};

struct Widget {
  explicit Widget(int v) : value(helper(v)) {}
  int value;
};

template <class T>
T twice(T x) {
  return helper(x) + helper(x);
}

template <class T>
struct Box {
  T get() const { return twice(value); }
  T value;
};

int drive(A& a, Base& b) { return b.run(1) + twice(2) + a.A::run(0); }

int use_lambda(int v) {
  auto f = [](int a) { return helper(a); };
  return f(v);
}

int apply(int (*fp)(int), int x) { return fp(x); }
int call_function(const std::function<int(int)>& g) { return g(3); }

int make() {
  Box<double> box{1.5};
  return Widget(3).value + static_cast<int>(box.get());
}

}  // namespace ns
