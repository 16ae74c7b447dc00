#include <cstdlib>
int add(int a, int b) {
  int s = a + b;
  if (s > 10)
    return s - 1;
  return s;
}
inline int twice(int x) { return 2 * x; }
