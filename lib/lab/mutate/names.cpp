// Identifier words and the name lists behind the DL operators' heuristics.
#include "names.h"

#include <algorithm>
#include <cctype>

namespace dlfl::mutate::detail {
namespace {

bool lower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
bool upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// [begin, end) of each word in `name`, in order.
std::vector<std::pair<std::size_t, std::size_t>> word_spans(std::string_view name) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t start = std::string_view::npos;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    const bool end = i == name.size() || !(std::isalnum(static_cast<unsigned char>(name[i])));
    bool split = false;
    if (!end && start != std::string_view::npos && i > start) {
      const char p = name[i - 1], c = name[i];
      split = (lower(p) && upper(c)) || (digit(p) != digit(c)) ||
              (upper(p) && upper(c) && i + 1 < name.size() && lower(name[i + 1]));
    }
    if ((end || split) && start != std::string_view::npos) {
      spans.emplace_back(start, i);
      start = std::string_view::npos;
    }
    if (!end && start == std::string_view::npos) start = i;
  }
  return spans;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// `word` spelled in the case style of `like`: all capitals, capitalised or lower.
std::string in_case_of(std::string_view word, std::string_view like) {
  std::string out(word);
  const bool all_upper = std::all_of(like.begin(), like.end(), [](char c) { return !lower(c); });
  if (all_upper && like.size() > 1) {
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  } else if (!like.empty() && upper(like.front()) && !out.empty()) {
    out.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(out.front())));
  }
  return out;
}

}  // namespace

std::vector<std::string> name_words(std::string_view name) {
  std::vector<std::string> words;
  for (const auto& [b, e] : word_spans(name)) words.push_back(to_lower(name.substr(b, e - b)));
  return words;
}

bool has_word(std::string_view name, std::initializer_list<std::string_view> words) {
  for (const auto& w : name_words(name))
    if (std::find(words.begin(), words.end(), w) != words.end()) return true;
  return false;
}

bool is_epsilon_name(std::string_view name) { return has_word(name, {"eps", "epsilon"}); }

bool is_learning_rate_name(std::string_view name) {
  const auto words = name_words(name);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "lr" || words[i] == "learningrate") return true;
    if (words[i] == "learning" && i + 1 < words.size() && words[i + 1] == "rate") return true;
  }
  return false;
}

bool is_momentum_name(std::string_view name) { return has_word(name, {"beta", "momentum", "rho"}); }

bool is_bias_correction_name(std::string_view name) {
  return has_word(name, {"bias"}) && has_word(name, {"correction", "corr", "correct", "corrected"});
}

bool is_stride_name(std::string_view name) {
  return has_word(name, {"stride", "strides", "pitch", "ld", "lda", "ldb", "ldc"});
}

bool is_shape_name(std::string_view name) {
  return has_word(name, {"shape", "shapes", "dims", "dim", "size", "sizes", "stride", "strides", "extent", "extents"});
}

bool is_axis_name(std::string_view name) { return has_word(name, {"axis", "axes"}) || to_lower(name) == "dim"; }

bool is_gradient_function_name(std::string_view name) {
  return has_word(name, {"backward", "grad", "grads", "gradient", "gradients", "bwd"});
}

bool is_broadcast_function_name(std::string_view name) {
  return has_word(name, {"broadcast", "broadcasting", "expand"});
}

bool is_launch_geometry_name(std::string_view name) {
  return has_word(name, {"grid", "grids", "block", "blocks", "tile", "tiles", "thread", "threads", "warp", "warps"});
}

std::vector<std::string> counterpart_names(std::string_view name,
                                           std::initializer_list<std::pair<std::string_view, std::string_view>> pairs) {
  std::vector<std::string> out;
  for (const auto& [b, e] : word_spans(name)) {
    const std::string_view spelled = name.substr(b, e - b);
    const std::string word = to_lower(spelled);
    for (const auto& [x, y] : pairs) {
      const std::string_view partner = word == x ? y : word == y ? x : std::string_view();
      if (partner.empty()) continue;
      out.push_back(std::string(name.substr(0, b)) + in_case_of(partner, spelled) + std::string(name.substr(e)));
    }
  }
  return out;
}

}  // namespace dlfl::mutate::detail
