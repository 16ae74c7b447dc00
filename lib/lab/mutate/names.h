// Identifier heuristics of the DL operators: names split into words, and the word lists
// that mark an epsilon, a learning rate, a stride... Knows no Clang, so it is unit-tested
// on plain strings.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::mutate::detail {

// Lower-case words of an identifier, split at '_', at lower→upper case changes, before
// the last capital of a capital run ("HTTPServer" → http, server) and between letters and
// digits: "kEps" → {k, eps}; "bias_correction2" → {bias, correction, 2}; "FanIn" → {fan, in}.
std::vector<std::string> name_words(std::string_view name);

// Whether any word of `name` is one of `words` (lower case).
bool has_word(std::string_view name, std::initializer_list<std::string_view> words);

bool is_epsilon_name(std::string_view name);             // eps, epsilon, kEps, layer_norm_eps
bool is_learning_rate_name(std::string_view name);       // lr, learning_rate, learningRate, base_lr
bool is_momentum_name(std::string_view name);            // beta, beta1, momentum, rho
bool is_bias_correction_name(std::string_view name);     // bias_correction1, sqrt_bias_correction2
bool is_stride_name(std::string_view name);              // stride, strides, pitch, ld, lda
bool is_shape_name(std::string_view name);               // shape, dims, sizes, strides, extent
bool is_axis_name(std::string_view name);                // axis, axes, reduce_axis, dim
bool is_gradient_function_name(std::string_view name);   // *backward*, *grad*, *bwd*
bool is_broadcast_function_name(std::string_view name);  // *broadcast*, *expand*
bool is_launch_geometry_name(std::string_view name);     // grid, block, tile, thread, warp

// The names `name` becomes when one of its words is exchanged with its partner in
// `pairs` (both directions), keeping the word's case: with {{"in","out"}}, "fan_in" →
// {"fan_out"} and "FanIn" → {"FanOut"}. One candidate per matching word.
std::vector<std::string> counterpart_names(std::string_view name,
                                           std::initializer_list<std::pair<std::string_view, std::string_view>> pairs);

}  // namespace dlfl::mutate::detail
