// Language names and the extension rules that give collected elements their language.
#include "dlfl/language.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "dlfl/element.h"
#include "dlfl/string_pool.h"

namespace dlfl {
namespace {

constexpr std::array<std::string_view, kLastLanguage + 1> kNames = {"unknown", "c",      "cpp",
                                                                    "cuda",    "python", "extrinsic"};

// Lower-cased extensions (without the dot) and their language. `.C` (upper case) is C++
// by GCC's convention; it is checked before lower-casing.
constexpr std::array<std::pair<std::string_view, Language>, 16> kExtensions = {{
    {"c", Language::c},        {"cc", Language::cpp},   {"cpp", Language::cpp},  {"cxx", Language::cpp},
    {"c++", Language::cpp},    {"hh", Language::cpp},   {"hpp", Language::cpp},
    {"hxx", Language::cpp},    {"h++", Language::cpp},  {"ipp", Language::cpp},  {"tpp", Language::cpp},
    {"inl", Language::cpp},    {"cu", Language::cuda},  {"cuh", Language::cuda}, {"py", Language::python},
    {"pyi", Language::python},
}};

std::string_view extension(std::string_view path) noexcept {
  const auto slash = path.find_last_of('/');
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  return path.substr(dot + 1);
}

bool is_c_header(std::string_view path) noexcept {
  const auto ext = extension(path);
  return ext == "h" || ext == "H";
}

}  // namespace

std::string_view language_name(Language language) noexcept {
  const auto i = static_cast<std::uint8_t>(language);
  return i <= kLastLanguage ? kNames[i] : "unknown";
}

std::optional<Language> parse_language(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Language>(i);
  return std::nullopt;
}

Language language_of_path(std::string_view path) noexcept {
  const auto ext = extension(path);
  if (ext == "C") return Language::cpp;
  std::string lower(ext);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& [name, language] : kExtensions)
    if (name == lower) return language;
  return Language::unknown;
}

void infer_languages(std::span<ElementRecord> elements, const StringPool& strings) {
  bool any_c = false, any_cpp = false, any_header = false;
  // Per file id, computed once: a file holds many elements.
  constexpr std::uint8_t kNotYet = 0xff, kHeader = 0xfe;
  std::vector<std::uint8_t> of_file;
  for (ElementRecord& r : elements) {
    if (r.language == Language::unknown) {
      if (r.kind == ElementKind::extrinsic) {
        r.language = Language::extrinsic;
      } else {
        if (of_file.empty()) of_file.assign(strings.size(), kNotYet);
        std::uint8_t& known = of_file[r.file];
        if (known == kNotYet)
          known = is_c_header(strings[r.file]) ? kHeader : static_cast<std::uint8_t>(language_of_path(strings[r.file]));
        if (known == kHeader) any_header = true;
        else r.language = static_cast<Language>(known);
      }
    }
    any_c |= r.language == Language::c;
    any_cpp |= r.language == Language::cpp || r.language == Language::cuda;
  }
  if (!any_header) return;
  const Language header = any_c && !any_cpp ? Language::c : Language::cpp;
  for (ElementRecord& r : elements)
    if (r.language == Language::unknown && r.kind == ElementKind::code && is_c_header(strings[r.file]))
      r.language = header;
}

bool languages_to_infer(std::span<const ElementRecord> elements, const StringPool& strings) {
  constexpr std::uint8_t kNotYet = 0xff, kInferable = 1, kNot = 0;
  std::vector<std::uint8_t> of_file;
  for (const ElementRecord& r : elements) {
    if (r.language != Language::unknown) continue;
    if (r.kind == ElementKind::extrinsic) return true;
    if (of_file.empty()) of_file.assign(strings.size(), kNotYet);
    std::uint8_t& known = of_file[r.file];
    if (known == kNotYet)
      known = is_c_header(strings[r.file]) || language_of_path(strings[r.file]) != Language::unknown ? kInferable : kNot;
    if (known == kInferable) return true;
  }
  return false;
}

std::string language_counts(std::span<const ElementRecord> elements) {
  std::array<std::size_t, kLastLanguage + 1> counts{};
  for (const ElementRecord& r : elements) ++counts[std::min<std::uint8_t>(static_cast<std::uint8_t>(r.language), kLastLanguage)];
  std::string out;
  // Unknown last: it is the odd one out.
  for (std::uint8_t i = 1; i <= kLastLanguage + 1; ++i) {
    const std::uint8_t l = i == kLastLanguage + 1 ? 0 : i;
    if (counts[l] == 0) continue;
    if (!out.empty()) out += ", ";
    out += std::string(kNames[l]) + " " + std::to_string(counts[l]);
  }
  return out.empty() ? "none" : out;
}

}  // namespace dlfl
