// The seeded-fault switch of the example (faults/faults.json). One build serves every
// fault: TORCH_EXT_FAULT=<id> in the environment turns one fault on at run time, so the
// slow extension build happens once. A faulty statement is the body of an
// `if (fault_active("id"))` and carries a `FAULT(id)` comment; faults.json names its line.
#pragma once

#include <cstdlib>
#include <cstring>

namespace torch_ext {

inline bool fault_active(const char* id) {
  const char* active = std::getenv("TORCH_EXT_FAULT");
  return active != nullptr && std::strcmp(active, id) == 0;
}

}  // namespace torch_ext
