/* C corpus, unit 1: a statement macro, goto cleanup, a label, designated initialisers,
 * compound literals, declarations after statements (C99). */
#include "text.h"

#include <stdlib.h>
#include <string.h>

struct point {
  int x, y;
};

_Static_assert(sizeof(struct point) >= 2 * sizeof(int), "two ints");

int count_vowels(const char* s) {  //@ vowels none
  int n = 0;                       //@ vowels none
  RETURN_IF(s == NULL, -1);        //@ vowels none
  for (; *s; ++s)                  //@ vowels
    n += is_vowel(*s);             //@ vowels
  return n;                        //@ vowels
}

int parse_pair(const char* s, int* a, int* b) {  //@ pair badpair
  int status = -1;                               //@ pair badpair
  char* copy = malloc(strlen(s) + 1);            //@ pair badpair
  if (!copy) return -1;                          //@ pair badpair
  strcpy(copy, s);                               //@ pair badpair
  char* comma = strchr(copy, ',');               //@ pair badpair
  if (!comma) goto done;                         //@ pair badpair
  *comma = '\0';                                 //@ pair
  struct point p = {.x = atoi(copy), .y = atoi(comma + 1)};  //@ pair
  p = (struct point){p.x, p.y};                  //@ pair
  *a = p.x;                                      //@ pair
  *b = p.y;                                      //@ pair
  status = 0;                                    //@ pair
done:
  free(copy);     //@ pair badpair
  return status;  //@ pair badpair
}
