// Names and messages made safe for a terminal or a log (include/dlfl/printable.h).
#include "dlfl/printable.h"

namespace dlfl {
namespace {

// Length of the valid UTF-8 sequence at the start of `s` (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF), 0 when there is none.
std::size_t utf8_sequence(std::string_view s) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b = byte(0);
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xBF;  // bounds of the second byte
  if (b >= 0xC2 && b <= 0xDF) n = 2;
  else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
    if (b == 0xE0) low = 0xA0;
    if (b == 0xED) high = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
    if (b == 0xF0) low = 0x90;
    if (b == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (s.size() < n || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (c == '\r' || c == '\n' || c == '\t') {
      out += c == '\r' ? "\\r" : c == '\n' ? "\\n" : "\\t";
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_sequence(text.substr(i)) : 0; n > 0) {
      const auto second = static_cast<unsigned char>(text[i + 1]);
      if (c == 0xC2 && second < 0xA0) {  // C1 control U+0080..U+009F
        out += "\\u00";
        out.push_back(kHex[second >> 4]);
        out.push_back(kHex[second & 15]);
      } else {
        out.append(text.substr(i, n));
      }
      i += n;
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
      ++i;
    }
  }
  return out;
}

}  // namespace dlfl
