// Extrinsic elements: GoogleTest parameters from a listing, environment values, and their
// coverage in the spectrum.
#include "dlfl/collect/extrinsic_elements.h"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace dlfl::collect {
namespace {

TEST(ExtrinsicElements, GtestTypeAndValueParametersBecomeLabels) {
  const auto labels = gtest_parameter_labels(
      "Running main() from gtest_main.cc\n"
      "Plain.\n  Works\n"
      "Conv/0.  # TypeParam = half\r\n  Forward\r\n  DISABLED_Slow\r\n"
      "Ops/Softmax.\n  Rows/0  # GetParam() = (float16, cuda)\n  Rows/1  # GetParam() = 8\n"
      "DISABLED_Off/0.  # TypeParam = int\n  Never\n");
  EXPECT_EQ(labels.size(), 3u);
  EXPECT_FALSE(labels.contains("Plain.Works"));
  EXPECT_EQ(labels.at("Conv/0.Forward"), (std::vector<std::string>{"TypeParam=half"}));
  EXPECT_EQ(labels.at("Ops/Softmax.Rows/0"), (std::vector<std::string>{"GetParam()=(float16, cuda)"}));
  EXPECT_EQ(labels.at("Ops/Softmax.Rows/1"), (std::vector<std::string>{"GetParam()=8"}));
}

TEST(ExtrinsicElements, EnvironmentValues) {
  ::setenv("DLFL_TEST_DEVICE", "cuda", 1);
  ::unsetenv("DLFL_TEST_UNSET");
  EXPECT_EQ(environment_labels({"DLFL_TEST_DEVICE", "DLFL_TEST_UNSET"}),
            (std::vector<std::string>{"DLFL_TEST_DEVICE=cuda", "DLFL_TEST_UNSET="}));
}

TEST(ExtrinsicElements, CoveredByTheTestsThatRanUnderThem) {
  SpectrumBuilder b;
  const auto line = b.add_element("a.cpp", 3, 3, "f");
  b.add_test(TestCase::pass("T.half"), {line});
  b.add_test(TestCase::fail("T.float"), {line});
  const Spectrum s = add_extrinsic_elements(std::move(b).finish(), [](const TestCase& t) {
    return t.name == "T.half" ? std::vector<std::string>{"TypeParam=half", "GPU=0"}
                              : std::vector<std::string>{"GPU=0"};
  });
  ASSERT_EQ(s.element_count(), 3u);
  EXPECT_EQ(s.element_name(0), "a.cpp#f:3");
  EXPECT_EQ(s.element_name(1), "TypeParam=half");
  EXPECT_EQ(s.element(1).kind, ElementKind::extrinsic);
  EXPECT_TRUE(s.coverage().covers(0, 1));
  EXPECT_FALSE(s.coverage().covers(1, 1));
  EXPECT_TRUE(s.coverage().covers(0, 2) && s.coverage().covers(1, 2));
  EXPECT_TRUE(s.coverage().covers(1, 0));
  EXPECT_TRUE(s.tests()[1].failed());
}

}  // namespace
}  // namespace dlfl::collect
