/* C corpus: a header included by both C units, with static inline functions and a macro
 * that expands to a statement. Markers (slash slash at NAMES): see ../constructs.h. */
#ifndef C_TEXT_H
#define C_TEXT_H

#include <stddef.h>

#define RETURN_IF(cond, value) \
  do {                         \
    if (cond) return (value);  \
  } while (0)

static inline int is_vowel(char c) {  //@ vowels words
  switch (c) {                        //@ vowels words
    case 'a':
    case 'e':
    case 'i':
    case 'o':
    case 'u':
      return 1;  //@ vowels words
    default:
      return 0;  //@ vowels words
  }
}

int count_vowels(const char* s);
int parse_pair(const char* s, int* a, int* b);
int longest_word(const char* s);

#endif /* C_TEXT_H */
