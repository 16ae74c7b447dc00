// An OpenMP parallel region: clang outlines its body as `.omp_outlined.`.
#include <cstdio>

int sum_squares(int n) {
  int total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < n; ++i) {
    total += i * i;
  }
  return total;
}

int main() {
  std::printf("%d\n", sum_squares(10));
  return 0;
}
