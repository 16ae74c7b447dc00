#include <stdio.h>
#include <stdlib.h>

int classify(int x) {
  if (x < 0)
    return -1;
  if (x == 0)
    return 0;
  return 1;
}

/* prog N prints classify(N); "m5" is -5. */
int main(int argc, char** argv) {
  if (argc != 2)
    return 2;
  const int x = argv[1][0] == 'm' ? -atoi(argv[1] + 1) : atoi(argv[1]);
  printf("%d\n", classify(x));
  return 0;
}
