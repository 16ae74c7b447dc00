// Uses the installed dlfl library: build a spectrum, write and re-read it, rank it.
#include <dlfl/counts.h>
#include <dlfl/formula.h>
#include <dlfl/formats/native_format.h>
#include <dlfl/ranking.h>
#include <dlfl/spectrum.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  dlfl::SpectrumBuilder b;
  b.add_element("src/a.cpp", 3, 3, "f");
  b.add_element("src/b.cpp", 7, 7, "g");
  b.add_test(dlfl::TestCase::pass("ok"), {0});
  b.add_test(dlfl::TestCase::fail("broken"), {0, 1});
  dlfl::io::write_native(std::move(b).finish(), argv[1]);
  const dlfl::Spectrum s = dlfl::io::read_native(argv[1]);
  const auto ranked = dlfl::rank(dlfl::make_formula("ochiai").score(dlfl::compute_counts(s)), s.tie_break_keys());
  std::cout << "consumer: top element " << s.element_name(ranked[0].element) << " score " << ranked[0].score << "\n";
  return 0;
}
