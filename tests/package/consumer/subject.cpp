// The program under test of the consumer project: test "N" checks classify(N) == N;
// classify has a seeded fault for N > 10, so test "20" fails.
#include <cstdlib>

int classify(int x) {
  if (x > 10)
    return x - 1;  // the fault
  return x;
}

int main(int argc, char** argv) {
  const int x = argc == 2 ? std::atoi(argv[1]) : 0;
  return classify(x) == x ? 0 : 1;
}
