/* How calc prints a number. */
#ifndef CALC_FORMAT_H
#define CALC_FORMAT_H

#include <stddef.h>

/* Integers up to 1e15 in magnitude without a decimal point, others with up to 10
 * significant digits (%.10g); -0 prints as 0. Writes at most `size` bytes. */
void format_number(double value, char* out, size_t size);

#endif
