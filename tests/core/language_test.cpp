// Tests for element languages: names, extension rules, inference in the builder and
// their survival through the copies collectors and filters make.
#include "dlfl/language.h"

#include <gtest/gtest.h>

#include "dlfl/aggregate.h"
#include "dlfl/error.h"
#include "dlfl/spectrum.h"
#include "dlfl/spectrum_subset.h"

namespace dlfl {
namespace {

TEST(Language, NamesRoundTrip) {
  for (std::uint8_t i = 0; i <= kLastLanguage; ++i) {
    const auto l = static_cast<Language>(i);
    EXPECT_EQ(parse_language(language_name(l)), l) << language_name(l);
  }
  EXPECT_EQ(language_name(Language::cpp), "cpp");
  EXPECT_EQ(parse_language("C++"), std::nullopt);
  EXPECT_EQ(language_name(static_cast<Language>(200)), "unknown");
}

TEST(Language, ExtensionsGiveTheLanguage) {
  EXPECT_EQ(language_of_path("src/calc.c"), Language::c);
  EXPECT_EQ(language_of_path("src/Calc.C"), Language::cpp);  // GCC: upper-case .C is C++
  EXPECT_EQ(language_of_path("a/b.cpp"), Language::cpp);
  EXPECT_EQ(language_of_path("a/b.CC"), Language::cpp);
  EXPECT_EQ(language_of_path("a/b.hpp"), Language::cpp);
  EXPECT_EQ(language_of_path("a/b.inl"), Language::cpp);
  EXPECT_EQ(language_of_path("k/conv.cu"), Language::cuda);
  EXPECT_EQ(language_of_path("k/conv.cuh"), Language::cuda);
  EXPECT_EQ(language_of_path("torch_ext/ops.py"), Language::python);
  EXPECT_EQ(language_of_path("a/b.h"), Language::unknown);  // C or C++: the spectrum decides
  EXPECT_EQ(language_of_path("a.dir/Makefile"), Language::unknown);  // a dot in a directory is no extension
  EXPECT_EQ(language_of_path(""), Language::unknown);
}

TEST(Language, BuilderInfersLanguagesAndHeadersFollowTheSources) {
  SpectrumBuilder b;
  b.add_element("calc.c", 3);
  b.add_element("calc.h", 7);
  b.add_element("notes.txt", 1);
  b.add_extrinsic("CALC_MODE=fast");
  b.add_element("gen/table.inc", 2, 2, {}, {}, Language::c);  // the collector knows better
  b.add_test(TestCase::fail("t"), {0, 1, 2, 3, 4});
  const Spectrum c = std::move(b).finish();
  EXPECT_EQ(c.element(0).language, Language::c);
  EXPECT_EQ(c.element(1).language, Language::c);  // only C sources: a C header
  EXPECT_EQ(c.element(2).language, Language::unknown);
  EXPECT_EQ(c.element(3).language, Language::extrinsic);
  EXPECT_EQ(c.element(4).language, Language::c);
  EXPECT_EQ(language_counts(c.elements()), "c 3, extrinsic 1, unknown 1");

  SpectrumBuilder m;
  m.add_element("calc.c", 3);
  m.add_element("ops.cpp", 3);
  m.add_element("ops.h", 1);
  m.add_element("ops.py", 9, 9, "forward");
  m.add_test(TestCase::fail("t"), {0, 1, 2, 3});
  const Spectrum mixed = std::move(m).finish();
  EXPECT_EQ(mixed.element(2).language, Language::cpp);  // C and C++ sources: a C++ header
  EXPECT_EQ(mixed.element(3).language, Language::python);
  EXPECT_EQ(language_counts(mixed.elements()), "c 1, cpp 2, python 1");
  EXPECT_EQ(language_counts({}), "none");
}

// Readers copy a mapped element table only when inference changes something: exactly when
// infer_languages would.
TEST(Language, LanguagesToInferIsWhetherInferenceChangesAnElement) {
  StringPool strings;
  const auto cpp = strings.intern("ops.cpp"), h = strings.intern("ops.h"), txt = strings.intern("notes.txt");
  auto code = [](std::uint32_t file, Language language) {
    ElementRecord r{};
    r.kind = ElementKind::code;
    r.file = file;
    r.language = language;
    return r;
  };
  ElementRecord extrinsic{};
  extrinsic.kind = ElementKind::extrinsic;
  const std::vector<std::vector<ElementRecord>> cases = {
      {},
      {code(cpp, Language::cpp), code(txt, Language::unknown)},  // what this dlfl writes
      {code(txt, Language::unknown), code(txt, Language::unknown)},
      {code(txt, Language::unknown), code(cpp, Language::unknown)},  // a file from before languages
      {code(cpp, Language::cpp), code(h, Language::unknown)},
      {code(cpp, Language::cpp), extrinsic},
  };
  const std::vector<bool> expected = {false, false, false, true, true, true};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::vector<ElementRecord> inferred = cases[i];
    infer_languages(inferred, strings);
    bool changed = false;
    for (std::size_t e = 0; e < inferred.size(); ++e) changed |= inferred[e].language != cases[i][e].language;
    EXPECT_EQ(languages_to_infer(cases[i], strings), expected[i]) << "case " << i;
    EXPECT_EQ(changed, expected[i]) << "case " << i;
  }
}

TEST(Language, CopiesSubsetsAndAggregatesKeepTheLanguage) {
  SpectrumBuilder b;
  b.add_element("wrap.py", 4, 4, "forward");
  b.add_element("wrap.py", 5, 5, "forward");
  b.add_element("odd", 1, 1, "f", {}, Language::cuda);  // no extension: only the record knows
  b.add_extrinsic("dtype=float16");
  b.add_test(TestCase::fail("t"), {0, 1, 2, 3});
  b.add_test(TestCase::pass("u"), {0, 2});
  const Spectrum s = std::move(b).finish();

  SpectrumBuilder copy;
  for (std::size_t e = 0; e < s.element_count(); ++e) copy.add_copy(s, e);
  copy.add_test(TestCase::fail("t"), {2});
  const Spectrum c = std::move(copy).finish();
  for (std::size_t e = 0; e < s.element_count(); ++e) EXPECT_EQ(c.element(e).language, s.element(e).language) << e;
  EXPECT_EQ(c.element(2).language, Language::cuda);
  EXPECT_EQ(c.element_name(3), "dtype=float16");

  const Spectrum sub = subset(s, [](std::size_t e) { return e >= 2; }, {});
  ASSERT_EQ(sub.element_count(), 2u);
  EXPECT_EQ(sub.element(0).language, Language::cuda);
  EXPECT_EQ(sub.element(1).language, Language::extrinsic);

  const Aggregated functions = aggregate(s, Granularity::function);
  for (std::size_t g = 0; g < functions.spectrum.element_count(); ++g)
    EXPECT_NE(functions.spectrum.element(g).language, Language::unknown) << functions.spectrum.element_name(g);
}

TEST(Language, SpectrumRefusesAnUnknownLanguageValue) {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1);
  b.add_test(TestCase::fail("t"), {0});
  const Spectrum s = std::move(b).finish();
  std::vector<ElementRecord> records(s.elements().begin(), s.elements().end());
  records[0].language = static_cast<Language>(9);
  StringPool pool = s.strings();
  Coverage coverage = s.coverage();
  try {
    Spectrum(std::move(pool), std::move(records), s.tests(), std::move(coverage));
    FAIL() << "accepted language 9";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "spectrum: element 0 has an unknown language 9");
  }
}

}  // namespace
}  // namespace dlfl
