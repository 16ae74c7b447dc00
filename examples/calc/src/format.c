/* Number formatting. */
#include "format.h"

#include <math.h>
#include <stdio.h>

void format_number(double value, char* out, size_t size) {
#if !CALC_FAULT_NEGATIVE_ZERO
  if (value == 0) value = 0; /* -0 → 0 */
#endif
  if (fabs(value) < 1e15 && value == floor(value)) {
    snprintf(out, size, "%.0f", value);
    return;
  }
  snprintf(out, size, "%.10g", value);
}
