#include <cstdio>
#include <cstring>
#include <csignal>
int add(int, int);
int main(int argc, char** argv) {
  if (argc > 1 && !strcmp(argv[1], "crash")) { add(1,2); raise(SIGSEGV); }
  printf("%d\n", add(argc, 20));
  return 0;
}
