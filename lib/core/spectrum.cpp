// Spectrum and SpectrumBuilder: the central data model and how it is assembled.
#include "dlfl/spectrum.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <string>

#include "dlfl/error.h"
#include "ranking_paths.h"  // detail::for_each_share

namespace dlfl {
namespace {

// GZoltar's element name shape: `file#function:line`, parts left out when absent.
std::string derived_name(std::string_view file, std::string_view function, std::uint32_t line) {
  std::string out(file);
  if (!function.empty()) out.append("#").append(function);
  if (line != 0) out.append(":").append(std::to_string(line));
  return out;
}

}  // namespace

Spectrum::Spectrum(StringPool strings, Column<ElementRecord> elements, std::vector<TestCase> tests,
                   Coverage coverage)
    : strings_(std::move(strings)), elements_(std::move(elements)), tests_(std::move(tests)),
      coverage_(std::move(coverage)) {
  if (coverage_.elements() != elements_.size() || coverage_.tests() != tests_.size())
    throw Error("spectrum: coverage is " + std::to_string(coverage_.tests()) + " tests x " +
                std::to_string(coverage_.elements()) + " elements, but there are " +
                std::to_string(tests_.size()) + " tests and " + std::to_string(elements_.size()) +
                " elements");
  const std::size_t n_strings = strings_.size();
  for (std::size_t i = 0; i < elements_.size(); ++i) {
    const auto& e = elements_[i];
    if (e.file >= n_strings || e.function >= n_strings || e.name >= n_strings)
      throw Error("spectrum: element " + std::to_string(i) + " names a string that does not exist");
    if (e.kind != ElementKind::code && e.kind != ElementKind::extrinsic)
      throw Error("spectrum: element " + std::to_string(i) + " has an unknown kind");
    if (static_cast<std::uint8_t>(e.language) > kLastLanguage)
      throw Error("spectrum: element " + std::to_string(i) + " has an unknown language " +
                  std::to_string(static_cast<unsigned>(e.language)));
  }
  for (const auto& t : tests_)
    if (!(t.failure_weight >= 0.0 && t.failure_weight <= 1.0))
      throw Error("spectrum: test " + t.name + " has failure weight " +
                  std::to_string(t.failure_weight) + ", outside [0, 1]");
}

std::string Spectrum::element_name(std::size_t element) const {
  const auto& e = elements_[element];
  if (e.name != 0) return std::string(strings_[e.name]);
  return derived_name(strings_[e.file], strings_[e.function], e.first_line);
}

bool Spectrum::binary_outcomes() const noexcept {
  return std::all_of(tests_.begin(), tests_.end(),
                     [](const TestCase& t) { return t.failure_weight == 0.0 || t.failure_weight == 1.0; });
}

std::vector<std::uint32_t> Spectrum::failing_test_ids() const {
  std::vector<std::uint32_t> ids;
  for (std::size_t t = 0; t < tests_.size(); ++t)
    if (tests_[t].failed()) ids.push_back(static_cast<std::uint32_t>(t));
  return ids;
}

void Spectrum::attach_failing_coverage(FailingCoverage failing) {
  const auto expected = failing_test_ids();
  if (!std::equal(expected.begin(), expected.end(), failing.tests().begin(), failing.tests().end()))
    throw Error("spectrum: the failing coverage lists " + std::to_string(failing.size()) +
                " tests, not the spectrum's " + std::to_string(expected.size()) + " failing tests");
  for (const auto e : failing.elements())
    if (e >= elements_.size())
      throw Error("spectrum: the failing coverage names element " + std::to_string(e) + " of " +
                  std::to_string(elements_.size()));
  failing_ = std::move(failing);
}

double Spectrum::failed_weight() const noexcept {
  double f = 0.0;
  for (const auto& t : tests_) f += t.failure_weight;
  return f;
}

double Spectrum::passed_weight() const noexcept {
  double p = 0.0;
  for (const auto& t : tests_) p += 1.0 - t.failure_weight;
  return p;
}

std::vector<std::uint32_t> Spectrum::rank_files_by_name(std::vector<StringId>& files) const {
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  std::vector<std::uint32_t> by_name(files.size());
  std::iota(by_name.begin(), by_name.end(), 0u);
  std::sort(by_name.begin(), by_name.end(),
            [&](std::uint32_t a, std::uint32_t b) { return strings_[files[a]] < strings_[files[b]]; });
  std::vector<std::uint32_t> rank(files.size());
  for (std::size_t r = 0; r < by_name.size(); ++r) rank[by_name[r]] = static_cast<std::uint32_t>(r);
  return rank;
}

std::vector<std::uint64_t> Spectrum::tie_break_keys() const {
  // key = (rank of the file's name << 32) | first line. One pass over the element records
  // (24 B each) keys them by file *id* and lists the files met; the files are then ranked
  // by name, and a pass over the keys alone (8 B each) replaces each id by its rank. Both
  // passes are shared by two threads on large spectra (a ranking's other passes are too).
  const std::size_t n = elements_.size();
  const unsigned threads = n >= (std::size_t{1} << 18) ? 2 : 1;
  std::vector<std::uint64_t> keys(n);
  std::vector<std::vector<StringId>> files_met(threads);
  detail::for_each_share(threads, n, [&](unsigned t, std::size_t begin, std::size_t end) {
    StringId last_file = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const ElementRecord& e = elements_[i];
      keys[i] = (std::uint64_t{e.file} << 32) | e.first_line;
      if (e.file != last_file || i == begin) files_met[t].push_back(last_file = e.file);
    }
  });
  std::vector<StringId> files;
  for (const auto& met : files_met) files.insert(files.end(), met.begin(), met.end());
  const std::vector<std::uint32_t> rank = rank_files_by_name(files);
  std::vector<std::uint32_t> file_rank(strings_.size(), 0);  // per-element lookups: a table
  for (std::size_t f = 0; f < files.size(); ++f) file_rank[files[f]] = rank[f];
  detail::for_each_share(threads, n, [&](unsigned, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      keys[i] = (std::uint64_t{file_rank[keys[i] >> 32]} << 32) | (keys[i] & 0xFFFFFFFFu);
  });
  return keys;
}

std::uint32_t SpectrumBuilder::add_element(std::string_view file, std::uint32_t first_line,
                                           std::uint32_t last_line, std::string_view function,
                                           std::string_view name, Language language) {
  ElementRecord r;
  r.language = language;
  r.file = strings_.intern(file);
  r.function = strings_.intern(function);
  r.first_line = first_line;
  r.last_line = last_line == 0 ? first_line : last_line;
  r.kind = ElementKind::code;
  elements_.push_back(r);
  const auto id = static_cast<std::uint32_t>(elements_.size() - 1);
  // Keep a name only when it is not the derived one, so names cost nothing by default.
  if (!name.empty() && derived_name(file, function, first_line) != name)
    elements_.back().name = strings_.intern(name);
  return id;
}

std::uint32_t SpectrumBuilder::add_extrinsic(std::string_view label) {
  ElementRecord r;
  r.name = strings_.intern(label);
  r.kind = ElementKind::extrinsic;
  r.language = Language::extrinsic;
  elements_.push_back(r);
  return static_cast<std::uint32_t>(elements_.size() - 1);
}

std::uint32_t SpectrumBuilder::add_copy(const Spectrum& from, std::size_t e) {
  const ElementRecord& r = from.element(e);
  if (r.kind == ElementKind::extrinsic) return add_extrinsic(from.element_name(e));
  return add_element(from.file(e), r.first_line, r.last_line, from.function(e),
                     r.name != 0 ? from.strings()[r.name] : std::string_view(), r.language);
}

std::uint32_t SpectrumBuilder::add_named_element(std::string_view name) {
  // GZoltar: `pkg$Class#method(args):line`; the line is the digits after the last ':'.
  std::string_view rest = name;
  std::uint32_t line = 0;
  if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    const auto digits = rest.substr(colon + 1);
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc() && end == digits.data() + digits.size() && !digits.empty()) {
      line = value;
      rest = rest.substr(0, colon);
    }
  }
  std::string_view file = rest, function;
  if (const auto hash = rest.find('#'); hash != std::string_view::npos) {
    file = rest.substr(0, hash);
    function = rest.substr(hash + 1);
  }
  return add_element(file, line, line, function, name);
}

void SpectrumBuilder::add_test(TestCase test, std::span<const std::uint32_t> covered) {
  coverage_.add_row(covered);
  tests_.push_back(std::move(test));
}

Spectrum SpectrumBuilder::finish() && {
  try {
    infer_languages(elements_, strings_);
    Coverage coverage = std::move(coverage_).finish(elements_.size());
    return Spectrum(std::move(strings_), std::move(elements_), std::move(tests_), std::move(coverage));
  } catch (const Error& e) {
    throw Error(std::string("spectrum: ") + e.message());
  }
}

}  // namespace dlfl
