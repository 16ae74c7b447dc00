// swap_in_out (model) and swap_height_width (tensor): names exchanged for declared partners.
#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

const char* const kLayers =
    "struct Fans { long fan_in; long fan_out; };\n"
    "Fans fans(long out, long in, long rf) {\n"
    "  Fans f{};\n"
    "  f.fan_in = in * rf;\n"
    "  f.fan_out = out * rf;\n"
    "  return f;\n"
    "}\n"
    "struct Conv { long in_channels, out_channels, kernel_h, kernel_w; };\n"
    "long conv_size(const Conv& c, long height, long width) {\n"
    "  const long rows = height - c.kernel_h + 1;\n"
    "  const long cols = width - c.kernel_w + 1;\n"
    "  return rows * cols * c.out_channels;\n"
    "}\n"
    "long later(long h) {\n"
    "  { const long w = 2; (void)w; }\n"  // out of scope at the use below
    "  return h;\n"
    "}\n";

TEST(PairedNameOperators, SwapInOut) {
  expect_mutants(Operator::swap_in_out, "layers.cpp", kLayers,
                 {{4, "fan_in", "fan_out"},
                  {4, "in", "out"},
                  {5, "fan_out", "fan_in"},
                  {5, "out", "in"},
                  {12, "out_channels", "in_channels"}});
}

TEST(PairedNameOperators, SwapHeightWidthNeedsAPartnerInScope) {
  expect_mutants(Operator::swap_height_width, "layers.cpp", kLayers,
                 {{10, "height", "width"},
                  {10, "kernel_h", "kernel_w"},
                  {11, "width", "height"},
                  {11, "kernel_w", "kernel_h"},
                  {12, "rows", "cols"},
                  {12, "cols", "rows"}});
}

}  // namespace
}  // namespace dlfl::mutate::testing
