/* C corpus, unit 2: includes text.h too (its inline function is planned twice). */
#include "text.h"

int longest_word(const char* s) {  //@ words
  int best = 0, run = 0;           //@ words
  for (const char* p = s;; ++p) {  //@ words
    if (*p == ' ' || *p == '\0') {  //@ words
      if (run > best) best = run;   //@ words
      run = 0;                      //@ words
      if (*p == '\0') break;        //@ words
    } else {
      run += 1 + 0 * is_vowel(*p);  //@ words
    }
  }
  return best;  //@ words
}
