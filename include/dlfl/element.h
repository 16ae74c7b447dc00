// Element: one program element of a spectrum (a line range in a file, a function, a
// file) or an extrinsic condition (e.g. `device=cuda`, `dtype=half`).
#pragma once

#include <cstdint>

#include "dlfl/language.h"
#include "dlfl/string_pool.h"

namespace dlfl {

enum class ElementKind : std::uint8_t {
  code = 0,       // source code: file, lines, enclosing function
  extrinsic = 1,  // a condition outside the code a test ran under (GPU, dtype, config)
};

// Fixed-size record so an element table can be memory-mapped (24 bytes, little-endian
// on disk). Strings are ids into the spectrum's StringPool.
struct ElementRecord {
  StringId file = 0;           // source path; empty for extrinsic elements
  StringId function = 0;       // enclosing function (may be empty)
  std::uint32_t first_line = 0;  // 1-based; 0 = unknown
  std::uint32_t last_line = 0;   // inclusive; == first_line for a single line
  StringId name = 0;  // display name; 0 = derived from file/function/line (see element_name)
  ElementKind kind = ElementKind::code;
  Language language = Language::unknown;  // set by the collector (SpectrumBuilder infers it)
  std::uint8_t reserved[2] = {0, 0};
};
static_assert(sizeof(ElementRecord) == 24);

}  // namespace dlfl
