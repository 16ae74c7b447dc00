/* Writes a runtime snapshot through the runtime's own API from a script on stdin, as the
 * GPU run would if its device probes reached what the script says (verdict.py replay):
 *   probes COUNT MAP_ID_HEX   register the probe map
 *   begin NAME                a test begins
 *   hit PROBE                 a probe is reached
 *   end OUTCOME               the test ends (0 passed, 1 failed)
 * The file is DLFL_RT_FILE's. Exit 1 on a malformed line or a runtime call that fails. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlfl_rt/dlfl_rt.h"

int main(void) {
  char line[4096];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = '\0';
    unsigned long long a = 0, b = 0;
    int ok = 1;
    if (sscanf(line, "probes %llu %llx", &a, &b) == 2) dlfl_rt_register_probes(a, b);
    else if (strncmp(line, "begin ", 6) == 0) ok = dlfl_rt_begin_test(line + 6) == 0;
    else if (sscanf(line, "hit %llu", &a) == 1 && a < dlfl_rt_probe_count()) dlfl_rt_current_map()[a] = 1;
    else if (sscanf(line, "end %llu", &a) == 1) ok = dlfl_rt_end_test(a ? DLFL_RT_FAILED : DLFL_RT_PASSED) == 0;
    else ok = 0;
    if (!ok) {
      fprintf(stderr, "replay_snapshot: cannot replay '%s'\n", line);
      return 1;
    }
  }
  return 0;
}
