// Tests for fault_matching.h: the path and function rules, matching at each level, and
// lifting faults to coarser levels.
#include "dlfl/lab/eval/fault_matching.h"

#include <gtest/gtest.h>

#include <vector>

namespace dlfl::eval {
namespace {

ScoredElement line_element(std::string file, std::string function, std::uint32_t first,
                           std::uint32_t last = 0) {
  ScoredElement element;
  element.file = std::move(file);
  element.function = std::move(function);
  element.first_line = first;
  element.last_line = last;
  return element;
}

TEST(FaultMatching, NormalizePathDropsNoiseComponents) {
  EXPECT_EQ(normalize_path("/home/u/./proj//src/a.cpp"), "home/u/proj/src/a.cpp");
  EXPECT_EQ(normalize_path("src\\nn\\conv.cc"), "src/nn/conv.cc");
  EXPECT_EQ(normalize_path("../../torch/x/../csrc/a.cpp"), "torch/csrc/a.cpp");
  EXPECT_EQ(normalize_path(""), "");
}

TEST(FaultMatching, SameFileByTrailingComponents) {
  // Absolute ranking path vs repository-relative ground truth.
  EXPECT_TRUE(same_file("torch/csrc/a.cpp", "/home/u/pytorch/torch/csrc/a.cpp"));
  EXPECT_TRUE(same_file("/home/u/pytorch/torch/csrc/a.cpp", "torch/csrc/a.cpp"));
  // Build-directory-relative path: the leading `..` is dropped.
  EXPECT_TRUE(same_file("../torch/csrc/a.cpp", "torch/csrc/a.cpp"));
  EXPECT_TRUE(same_file("../torch/csrc/a.cpp", "pytorch/torch/csrc/a.cpp"));
  EXPECT_TRUE(same_file("torch\\csrc\\a.cpp", "torch/csrc/./a.cpp"));  // Denchmark's backslashes
  EXPECT_TRUE(same_file("a.cpp", "src/a.cpp"));                        // bare name: any directory
  EXPECT_TRUE(same_file("src/x/../a.cpp", "src/a.cpp"));
  EXPECT_FALSE(same_file("csrc/a.cpp", "jit/a.cpp"));
  EXPECT_FALSE(same_file("sa.cpp", "a.cpp"));  // whole components, not characters
  EXPECT_FALSE(same_file("src/a.cpp", "src/a.cpp.in"));
  EXPECT_FALSE(same_file("src/A.cpp", "src/a.cpp"));  // case-sensitive
  EXPECT_FALSE(same_file("", "a.cpp"));
  EXPECT_FALSE(same_file("a.cpp", ""));
  EXPECT_FALSE(same_file("..", "a.cpp"));
}

TEST(FaultMatching, SameFunctionByTrailingComponents) {
  EXPECT_TRUE(same_function("Conv2DOp::Compute", "tensorflow::Conv2DOp::Compute"));
  EXPECT_TRUE(same_function("tensorflow::Conv2DOp::Compute(OpKernelContext*)", "Compute"));
  EXPECT_TRUE(same_function("f(int) const", "f"));
  EXPECT_TRUE(same_function("Module.forward", "forward"));  // Python
  EXPECT_TRUE(same_function("Functor::operator()(int) const", "operator()"));
  EXPECT_FALSE(same_function("Functor::operator()", "Functor::operator+"));
  EXPECT_FALSE(same_function("A::run", "B::run"));
  EXPECT_FALSE(same_function("run", "rerun"));
  EXPECT_FALSE(same_function("", "run"));
}

// gcov's name of a function template's instance carries its return type and template
// arguments; a fix (and Denchmark's changed methods) names the template.
TEST(FaultMatching, ATemplateInstanceIsItsTemplate) {
  EXPECT_TRUE(same_function("dgl::aten::impl::CSRRowWisePick",
                            "dgl::aten::COOMatrix dgl::aten::impl::CSRRowWisePick<int>(dgl::aten::CSRMatrix, "
                            "std::function<void (int, int*)>)"));
  EXPECT_TRUE(same_function("Pick", "std::vector<int, std::allocator<int> > ns::Pick<long, 2>(int)"));
  EXPECT_TRUE(same_function("Box::get", "int Box<float>::get() const"));
  EXPECT_FALSE(same_function("dgl::aten::impl::CSRRowWisePick", "dgl::aten::COOMatrix dgl::aten::impl::COORowWisePick<int>(int)"));
  EXPECT_TRUE(same_function("Vec::operator<", "bool Vec<int>::operator<(Vec<int> const&) const"));
  EXPECT_FALSE(same_function("Vec::operator<", "bool Vec<int>::operator<<(Vec<int> const&) const"));
  EXPECT_TRUE(same_function("Arena::operator new", "Arena::operator new(unsigned long)"));
  // llvm-cov writes a non-type template argument of enum type as a cast, and Denchmark's
  // changed methods may name the class template with its parameters.
  EXPECT_TRUE(same_function("mkldnn::impl::cpu::_gemm_convolution_fwd_t::_gemm_convolution_fwd_t",
                            "mkldnn::impl::cpu::_gemm_convolution_fwd_t<false, false, (mkldnn::impl::cpu::cpu_isa_t)0>::"
                            "_gemm_convolution_fwd_t(mkldnn::impl::cpu::_gemm_convolution_fwd_t<false, false, "
                            "(mkldnn::impl::cpu::cpu_isa_t)0>::pd_t const*)"));
  EXPECT_TRUE(same_function("cpu::conv_t<with_relu,run_jit,isa>::execute_forward",
                            "cpu::conv_t<true, false, (cpu::cpu_isa_t)0>::execute_forward()"));
  EXPECT_FALSE(same_function("cpu::conv_t<with_relu,run_jit,isa>::execute_backward",
                             "cpu::conv_t<true, false, (cpu::cpu_isa_t)0>::execute_forward()"));
  EXPECT_TRUE(same_function("Vec::operator>", "bool Vec<int>::operator>(Vec<int> const&) const"));
  EXPECT_TRUE(same_function("Ptr::operator->", "T* Ptr<T>::operator->() const"));
}

TEST(FaultMatching, GranularityFollowsTheSetFields) {
  EXPECT_EQ(granularity({"a.cpp", 12, ""}), Granularity::line);
  EXPECT_EQ(granularity({"a.cpp", 12, "f"}), Granularity::line);
  EXPECT_EQ(granularity({"a.cpp", 0, "f"}), Granularity::function);
  EXPECT_EQ(granularity({"a.cpp", 0, ""}), Granularity::file);
}

TEST(FaultMatching, LineFaultNeedsALineRangeHoldingIt) {
  const GroundTruthItem fault{"src/a.cpp", 12, ""};
  EXPECT_TRUE(matches(fault, line_element("/repo/src/a.cpp", "f", 12)));
  EXPECT_TRUE(matches(fault, line_element("/repo/src/a.cpp", "f", 10, 14)));  // a block
  EXPECT_FALSE(matches(fault, line_element("/repo/src/a.cpp", "f", 13)));
  EXPECT_FALSE(matches(fault, line_element("/repo/src/b.cpp", "f", 12)));
  EXPECT_FALSE(
      matches(fault, line_element("/repo/src/a.cpp", "f", 0)));  // function element, no lines
  EXPECT_TRUE(matches(fault, line_element("/repo/src/a.cpp", "", 0)));  // a whole file
  // The function of a line fault does not narrow line-level matching.
  EXPECT_TRUE(matches({"src/a.cpp", 12, "g"}, line_element("src/a.cpp", "f", 12)));
}

TEST(FaultMatching, FunctionAndFileFaults) {
  const GroundTruthItem function_fault{"src/a.cpp", 0, "ns::f"};
  EXPECT_TRUE(matches(function_fault, line_element("a.cpp", "ns::f(int)", 30)));
  EXPECT_TRUE(matches(function_fault, line_element("a.cpp", "f", 0)));
  EXPECT_FALSE(matches(function_fault, line_element("a.cpp", "g", 30)));
  EXPECT_FALSE(matches(function_fault, line_element("a.cpp", "", 30)));  // line without function
  EXPECT_TRUE(matches(function_fault, line_element("a.cpp", "", 0)));    // a whole file
  EXPECT_FALSE(matches(function_fault, line_element("b.cpp", "ns::f", 30)));

  const GroundTruthItem file_fault{"src/a.cpp", 0, ""};
  EXPECT_TRUE(matches(file_fault, line_element("/x/src/a.cpp", "g", 99)));
  EXPECT_TRUE(matches(file_fault, line_element("/x/src/a.cpp", "", 0)));
  EXPECT_FALSE(matches(file_fault, line_element("/x/lib/a.cpp", "", 0)));
  EXPECT_FALSE(matches(file_fault, line_element("", "", 0)));  // extrinsic elements
}

TEST(FaultMatching, LiftFaultsToCoarserLevels) {
  const std::vector<GroundTruthItem> faults{{"src/a.cpp", 12, ""},    {"src/a.cpp", 13, "f"},
                                            {"./src/a.cpp", 12, "f"}, {"src\\a.cpp", 0, "g"},
                                            {"src/b.cpp", 0, ""},     {"src/b.cpp", 4, ""}};
  // Line level: `./src/a.cpp:12:f` is `src/a.cpp:12` again.
  EXPECT_EQ(lift_faults(faults, Granularity::line),
            (std::vector<GroundTruthItem>{{"src/a.cpp", 12, ""},
                                          {"src/a.cpp", 13, "f"},
                                          {"src\\a.cpp", 0, "g"},
                                          {"src/b.cpp", 0, ""},
                                          {"src/b.cpp", 4, ""}}));
  // Function level: lines with a known function become that function's fault.
  EXPECT_EQ(lift_faults(faults, Granularity::function),
            (std::vector<GroundTruthItem>{{"src/a.cpp", 12, ""},
                                          {"src/a.cpp", 0, "f"},
                                          {"src\\a.cpp", 0, "g"},
                                          {"src/b.cpp", 0, ""},
                                          {"src/b.cpp", 4, ""}}));
  // File level: one fault per file.
  EXPECT_EQ(lift_faults(faults, Granularity::file),
            (std::vector<GroundTruthItem>{{"src/a.cpp", 0, ""}, {"src/b.cpp", 0, ""}}));
}

}  // namespace
}  // namespace dlfl::eval
