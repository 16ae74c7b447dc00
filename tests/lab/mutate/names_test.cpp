// Identifier words and the name lists of the DL heuristics.
#include "names.h"

#include <gtest/gtest.h>

namespace dlfl::mutate::detail {
namespace {

TEST(NameWords, SplitsCaseUnderscoresAndDigits) {
  EXPECT_EQ(name_words("kEps"), (std::vector<std::string>{"k", "eps"}));
  EXPECT_EQ(name_words("bias_correction2"), (std::vector<std::string>{"bias", "correction", "2"}));
  EXPECT_EQ(name_words("FanIn"), (std::vector<std::string>{"fan", "in"}));
  EXPECT_EQ(name_words("HTTPServer_"), (std::vector<std::string>{"http", "server"}));
  EXPECT_EQ(name_words("options_"), (std::vector<std::string>{"options"}));
}

TEST(NameLists, WordsNotSubstrings) {
  EXPECT_TRUE(is_epsilon_name("eps"));
  EXPECT_TRUE(is_epsilon_name("layer_norm_eps"));
  EXPECT_TRUE(is_epsilon_name("kEpsilon"));
  EXPECT_FALSE(is_epsilon_name("steps"));
  EXPECT_TRUE(is_learning_rate_name("lr"));
  EXPECT_TRUE(is_learning_rate_name("learningRate"));
  EXPECT_TRUE(is_learning_rate_name("base_lr"));
  EXPECT_FALSE(is_learning_rate_name("lrn"));
  EXPECT_TRUE(is_momentum_name("beta1"));
  EXPECT_FALSE(is_momentum_name("alphabet"));
  EXPECT_TRUE(is_bias_correction_name("sqrt_bias_correction2"));
  EXPECT_FALSE(is_bias_correction_name("bias"));
  EXPECT_TRUE(is_axis_name("axis"));
  EXPECT_TRUE(is_axis_name("reduce_axes"));
  EXPECT_TRUE(is_axis_name("dim"));
  EXPECT_FALSE(is_axis_name("in_dim"));
  EXPECT_TRUE(is_gradient_function_name("cross_entropy_backward"));
  EXPECT_TRUE(is_gradient_function_name("computeGrad"));
  EXPECT_FALSE(is_gradient_function_name("upgrade"));
  EXPECT_TRUE(is_broadcast_function_name("broadcast_strides"));
  EXPECT_TRUE(is_launch_geometry_name("kMatmulTile"));
  EXPECT_FALSE(is_launch_geometry_name("blocking_io_count"));
}

TEST(CounterpartNames, KeepTheSpellingStyle) {
  EXPECT_EQ(counterpart_names("fan_in", {{"in", "out"}}), (std::vector<std::string>{"fan_out"}));
  EXPECT_EQ(counterpart_names("FanIn", {{"in", "out"}}), (std::vector<std::string>{"FanOut"}));
  EXPECT_EQ(counterpart_names("OUT_CHANNELS", {{"in", "out"}}), (std::vector<std::string>{"IN_CHANNELS"}));
  EXPECT_EQ(counterpart_names("kernel_h", {{"h", "w"}}), (std::vector<std::string>{"kernel_w"}));
  EXPECT_TRUE(counterpart_names("index", {{"in", "out"}}).empty());
}

}  // namespace
}  // namespace dlfl::mutate::detail
