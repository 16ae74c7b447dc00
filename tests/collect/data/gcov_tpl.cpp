template <typename T>
T sq(T x) {
  T r = x * x;
  return r;
}
static int helper(int x) { return x + 1; }
int main() {
  auto f = [](int y) {
    return y + 2;
  };
  return sq(2) + (int)sq(2.0) + helper(1) + f(1) - 14;
}
