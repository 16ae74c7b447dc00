// The union of spectra of the same code (see spectrum_union.h).
#include "dlfl/spectrum_union.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "dlfl/error.h"

namespace dlfl {

std::string element_identity(const Spectrum& s, std::size_t e) {
  const ElementRecord& r = s.element(e);
  std::string key(1, static_cast<char>(r.kind));
  if (r.kind == ElementKind::extrinsic || (r.file == 0 && r.first_line == 0)) return key + s.element_name(e);
  key += s.file(e);
  key += '\0';
  key += std::to_string(r.first_line);
  return key;
}

bool sorted_by_location(const Spectrum& s) {
  for (std::size_t e = 1; e < s.element_count(); ++e) {
    const auto& a = s.element(e - 1);
    const auto& b = s.element(e);
    if (std::tuple(a.kind, s.file(e - 1), a.first_line) > std::tuple(b.kind, s.file(e), b.first_line)) return false;
  }
  return true;
}

std::vector<std::uint32_t> union_element_order(std::span<const ElementOccurrence> first_met, bool every_input_sorted) {
  std::vector<std::uint32_t> order(first_met.size());
  std::iota(order.begin(), order.end(), 0u);
  if (!every_input_sorted) return order;
  auto key = [&](std::uint32_t k) {
    const Spectrum& s = *first_met[k].spectrum;
    const auto e = first_met[k].element;
    return std::tuple(s.element(e).kind, s.file(e), s.element(e).first_line);
  };
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  return order;
}

void TestRuns::add(const TestCase& run) {
  if (runs_ == 0) {
    test_ = run;
  } else if (failed_ == 0 && run.failed()) {  // the first failing run tells why it failed
    test_.status = run.status;
    test_.message = run.message;
  }
  ++runs_;
  failed_ += run.failed();
  weight_sum_ += run.failure_weight;
  runtime_ns_ += run.runtime_ns;
}

bool TestRuns::flaky() const noexcept {
  const double weight = runs_ ? weight_sum_ / runs_ : 0.0;
  return runs_ > 1 && weight > 0.0 && weight < 1.0;
}

std::string TestRuns::flaky_label() const {
  return test_.name + " " + std::to_string(failed_) + "/" + std::to_string(runs_);
}

TestCase TestRuns::joined(RunTimeRule rule) const& {
  TestCase test = test_;
  join_into(test, rule);
  return test;
}

TestCase TestRuns::joined(RunTimeRule rule) && {
  TestCase test = std::move(test_);
  join_into(test, rule);
  return test;
}

void TestRuns::join_into(TestCase& test, RunTimeRule rule) const {
  if (runs_ == 1) return;
  test.failure_weight = std::clamp(weight_sum_ / runs_, 0.0, 1.0);
  if (test.failure_weight > 0.0 && test.failure_weight < 1.0) {
    test.status = TestStatus::flaky;
  } else if (test.failure_weight == 0.0) {
    test.status = TestStatus::passed;
    test.message.clear();
  }
  test.runtime_ns = rule == RunTimeRule::total ? runtime_ns_ : runtime_ns_ / runs_;
}

SpectrumUnion unite_spectra(std::span<const Spectrum> inputs, RunTimeRule rule) {
  if (inputs.empty()) throw Error("no spectrum to unite");
  std::unordered_map<std::string, std::uint32_t> element_index;
  std::vector<ElementOccurrence> first;
  std::vector<std::vector<std::uint32_t>> element_of(inputs.size());  // [input][local] -> first-met id
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Spectrum& s = inputs[i];
    for (std::size_t e = 0; e < s.element_count(); ++e) {
      const auto [it, added] = element_index.try_emplace(element_identity(s, e), static_cast<std::uint32_t>(first.size()));
      if (added) first.push_back({&s, e});
      element_of[i].push_back(it->second);
    }
  }
  SpectrumBuilder b;
  std::vector<std::uint32_t> output_id(first.size());
  const bool sorted = std::all_of(inputs.begin(), inputs.end(), [](const Spectrum& s) { return sorted_by_location(s); });
  for (const std::uint32_t k : union_element_order(first, sorted))
    output_id[k] = b.add_copy(*first[k].spectrum, first[k].element);

  struct Joined {
    TestRuns runs;
    std::vector<std::uint32_t> elements;
  };
  std::vector<Joined> tests;
  std::unordered_map<std::string, std::size_t> test_index;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Spectrum& s = inputs[i];
    std::vector<std::size_t> row(s.test_count());
    for (std::size_t t = 0; t < s.test_count(); ++t) {
      const TestCase& test = s.tests()[t];
      const auto [it, added] = test_index.try_emplace(test.name, tests.size());
      if (added) tests.emplace_back();
      tests[it->second].runs.add(test);
      row[t] = it->second;
    }
    for (std::size_t e = 0; e < s.element_count(); ++e)
      for (const std::uint32_t t : s.coverage().tests_of(e)) tests[row[t]].elements.push_back(output_id[element_of[i][e]]);
  }
  SpectrumUnion out;
  for (auto& t : tests) {
    if (t.runs.flaky()) out.flaky.push_back(t.runs.flaky_label());
    b.add_test(std::move(t.runs).joined(rule), t.elements);
  }
  out.spectrum = std::move(b).finish();
  return out;
}

}  // namespace dlfl
