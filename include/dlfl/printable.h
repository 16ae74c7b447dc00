// Text from the user's code base (file, function and test names, messages) made safe to
// show on a terminal, in a CI log or in any line-oriented text output.
#pragma once

#include <string>
#include <string_view>

namespace dlfl {

// `text` as one printable line: CR, LF and tab become \r, \n and \t; other C0 control
// bytes, DEL, C1 controls (U+0080..U+009F, which some terminals obey as escape
// sequences) and bytes that are not valid UTF-8 become \xNN (C1 as \u0080..\u009f).
// Other valid UTF-8 is kept. A name holding ESC or a newline then cannot move the
// cursor, recolour the terminal, forge a line (`::error` in a GitHub log) or split a
// table row.
std::string printable(std::string_view text);

}  // namespace dlfl
