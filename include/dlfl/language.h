// Language: what an element of a spectrum is written in, so one ranking can mix Python
// lines, C/C++/CUDA lines and extrinsic conditions and still say which is which.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dlfl {

class StringPool;
struct ElementRecord;

// Stored as one byte in ElementRecord (0 = unknown, what files written before languages
// existed hold); values are never renumbered.
enum class Language : std::uint8_t {
  unknown = 0,
  c = 1,
  cpp = 2,
  cuda = 3,
  python = 4,
  extrinsic = 5,  // not code: a condition a test ran under (`dtype=float16`)
};
inline constexpr std::uint8_t kLastLanguage = static_cast<std::uint8_t>(Language::extrinsic);

// "c", "cpp", "cuda", "python", "extrinsic", "unknown".
std::string_view language_name(Language language) noexcept;
// The inverse of language_name (exact, lower case); nullopt for anything else.
std::optional<Language> parse_language(std::string_view name) noexcept;

// The language a source path's extension implies (case-insensitive): .c -> c;
// .cc/.cpp/.cxx/.c++/.C/.hh/.hpp/.hxx/.h++/.ipp/.tpp/.inl -> cpp; .cu/.cuh -> cuda;
// .py/.pyi -> python. `.h` is ambiguous (C or C++) and anything else unrecognized: both
// give unknown (see infer_languages).
Language language_of_path(std::string_view path) noexcept;

// Fills in the language of every element that has none: extrinsic elements get
// `extrinsic`, code elements the language of their file's extension; then `.h` files
// are C when the spectrum's other C-family files are all C, else C++ (a header serves
// the translation units that include it). Elements that already have a language keep it.
void infer_languages(std::span<ElementRecord> elements, const StringPool& strings);

// Whether infer_languages would change any element: readers copy a mapped element table
// to infer only then (a file from before languages), not for elements whose extension no
// inference knows (those stay unknown, and a 1M-element table is 32 MB).
bool languages_to_infer(std::span<const ElementRecord> elements, const StringPool& strings);

// How many elements each language has, for summaries: "cpp 1200, python 300, extrinsic 4"
// (languages in enum order, absent ones left out; "none" for no elements).
std::string language_counts(std::span<const ElementRecord> elements);

}  // namespace dlfl
