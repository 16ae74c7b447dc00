/* Runs the C corpus's scenarios in dlfl_rt test brackets: a plain C program, no
 * GoogleTest (not instrumented). */
#include <dlfl_rt/dlfl_rt.h>
#include <stdio.h>

#include "text.h"

int main(void) {
  int a = 0, b = 0, sink = 0;
  dlfl_rt_begin_test("vowels");
  sink += count_vowels("education") == 5;
  dlfl_rt_end_test(DLFL_RT_PASSED);
  dlfl_rt_begin_test("none");
  sink += count_vowels(NULL) == -1;
  dlfl_rt_end_test(DLFL_RT_PASSED);
  dlfl_rt_begin_test("pair");
  sink += parse_pair("3,4", &a, &b) == 0 && a == 3 && b == 4;
  dlfl_rt_end_test(DLFL_RT_PASSED);
  dlfl_rt_begin_test("badpair");
  sink += parse_pair("34", &a, &b) == -1;
  dlfl_rt_end_test(DLFL_RT_PASSED);
  dlfl_rt_begin_test("words");
  sink += longest_word("ab cde f") == 3;
  dlfl_rt_end_test(DLFL_RT_PASSED);
  if (sink != 5) fprintf(stderr, "wrong results: %d of 5 right\n", sink);
  return sink == 5 ? 0 : 1;
}
