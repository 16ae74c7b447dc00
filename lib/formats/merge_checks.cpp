// The checks of `dlfl merge`'s inputs, before and while it streams them (merge_checks.h).
#include "merge_checks.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "dlfl/error.h"

namespace dlfl::io::merge {
namespace {

constexpr std::string_view kAllowDisjoint = "give --allow-disjoint to merge them anyway";

}  // namespace

SpectrumOrigin merged_origin(const std::vector<Input>& in) {
  SpectrumOrigin out;
  const Input* root_from = nullptr;
  const Input* id_from = nullptr;
  for (const auto& i : in) {
    const auto& o = i.spectrum.origin();
    if (!o.source_root.empty()) {
      if (root_from && o.source_root != out.source_root)
        throw Error(i.name, 0,
                    "collected under source root " + o.source_root + ", but " + root_from->name + " under " +
                        out.source_root + ": spectra of different checkouts cannot be merged");
      if (!root_from) out.source_root = o.source_root, root_from = &i;
    }
    if (o.probe_map_id != 0) {
      if (id_from && o.probe_map_id != out.probe_map_id)
        throw Error(i.name, 0,
                    "was collected with another probe map than " + id_from->name +
                        " (the ids differ): spectra of differently instrumented code cannot be merged");
      if (!id_from) out.probe_map_id = o.probe_map_id, id_from = &i;
    }
  }
  return out;
}

void check_same_element(const std::vector<Input>& in, std::size_t first_input, std::size_t first_element,
                        std::size_t input, std::size_t element) {
  const Spectrum& f = in[first_input].spectrum;
  const Spectrum& s = in[input].spectrum;
  const ElementRecord &a = f.element(first_element), &b = s.element(element);
  if (f.function(first_element) == s.function(element) && a.last_line == b.last_line &&
      f.element_name(first_element) == s.element_name(element))
    return;
  throw Error(in[input].name, 0,
              "element " + s.element_name(element) + " (lines " + std::to_string(b.first_line) + "-" +
                  std::to_string(b.last_line) + ") is " + f.element_name(first_element) + " (lines " +
                  std::to_string(a.first_line) + "-" + std::to_string(a.last_line) + ") in " + in[first_input].name +
                  ": the spectra are not of the same code");
}

void check_related(const std::vector<Input>& in, const std::vector<char>& meets_element,
                   const std::vector<char>& meets_test) {
  auto has_root = [](const Input& i) { return !i.spectrum.origin().source_root.empty(); };
  const auto rooted = std::find_if(in.begin(), in.end(), has_root);
  const auto rootless = std::find_if_not(in.begin(), in.end(), has_root);
  if (rooted != in.end() && rootless != in.end())
    throw Error(rootless->name, 0,
                "has no source root, but " + rooted->name + " was collected under " +
                    rooted->spectrum.origin().source_root + ": nothing says they are of the same code; " +
                    std::string(kAllowDisjoint));
  for (std::size_t i = 1; i < in.size(); ++i)
    if (!meets_element[i] && !meets_test[i])
      throw Error(in[i].name, 0,
                  "shares no element and no test with " + (i == 1 ? in[0].name : "the inputs before it") +
                      ": spectra of different programs? " + std::string(kAllowDisjoint));
}

StreamedInputs::StreamedInputs(std::vector<Input>& in, bool shared_table)
    : in_(in), shared_table_(shared_table), released_(in.size(), 0) {
  if (!shared_table_) finish();
}

void StreamedInputs::offsets_through(std::size_t end) {
  for (auto& i : in_)
    if (i.checks) i.checks->offsets_through(end);
}

void StreamedInputs::rows_through(std::size_t end) {
  for (auto& i : in_)
    if (i.checks) i.checks->rows_through(end);
}

void StreamedInputs::offsets_at(std::size_t e) {
  if (e % kReleaseRange == 0) offsets_through(e + kReleaseRange);
}

void StreamedInputs::rows_at(std::size_t e) {
  if (e % kCheckRange == 0) rows_through(e + kCheckRange);
}

void StreamedInputs::release_through(std::size_t e) {
  if (e % kReleaseRange != 0 || e == 0 || !shared_table_) return;
  for (std::size_t i = 0; i < in_.size(); ++i) {
    if (!in_[i].mapped || in_[i].spectrum.coverage().is_dense()) continue;
    const Coverage& c = in_[i].spectrum.coverage();
    release(c.test_ids().subspan(c.offsets()[released_[i]], c.offsets()[e] - c.offsets()[released_[i]]));
    release(c.offsets().subspan(released_[i], e - released_[i]));
    released_[i] = e;
  }
}

void StreamedInputs::finish() {
  for (auto& i : in_)
    if (i.checks) i.checks->finish();
}

}  // namespace dlfl::io::merge
