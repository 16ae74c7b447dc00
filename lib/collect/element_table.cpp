// ElementTable: the union of the instrumented lines of all coverage reports.
#include "element_table.h"

#include <algorithm>
#include <numeric>

namespace dlfl::collect {

int ElementTable::file_index(const FileCoverage& coverage) {
  std::string key = coverage.base.string();
  key += '\0';
  key += coverage.path;
  if (const auto it = file_of_path_.find(key); it != file_of_path_.end()) return it->second;
  int index = -1;
  if (auto name = filter_.map(coverage.path, coverage.base)) {
    // Two spellings of one file (relative in one TU, absolute in another) are one file.
    const auto same = std::find_if(files_.begin(), files_.end(), [&](const File& f) { return f.name == *name; });
    if (same != files_.end()) {
      index = static_cast<int>(same - files_.begin());
    } else {
      index = static_cast<int>(files_.size());
      files_.push_back(File{std::move(*name), {}, {}, {}});
    }
  }
  file_of_path_.emplace(std::move(key), index);
  return index;
}

std::vector<std::uint32_t> ElementTable::add(const CoverageReport& report) {
  std::vector<std::uint32_t> covered;
  std::lock_guard lock(mutex_);
  for (const auto& coverage : report.files) {
    const int index = file_index(coverage);
    if (index < 0) continue;
    File& file = files_[static_cast<std::size_t>(index)];
    for (const auto& lc : coverage.lines) {
      if (lc.line == 0) continue;
      if (file.line_id.size() <= lc.line) file.line_id.resize(std::max<std::size_t>(lc.line + 1, file.line_id.size() * 2));
      std::uint32_t& id = file.line_id[lc.line];
      if (id == 0) {
        elements_.push_back({static_cast<std::uint32_t>(index), lc.line});
        id = static_cast<std::uint32_t>(elements_.size());
      }
      if (lc.count > 0) covered.push_back(id - 1);
    }
    for (const auto& f : coverage.functions) {
      std::string key = std::to_string(f.first_line) + ':' + std::to_string(f.last_line) + ':' + f.name;
      if (file.function_keys.insert(std::move(key)).second) file.functions.push_back(f);
    }
  }
  std::sort(covered.begin(), covered.end());
  covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
  return covered;
}

std::size_t ElementTable::size() const {
  std::lock_guard lock(mutex_);
  return elements_.size();
}

std::size_t ElementTable::paths_seen() const {
  std::lock_guard lock(mutex_);
  return file_of_path_.size();
}

std::vector<std::uint32_t> ElementTable::emit(SpectrumBuilder& builder) const {
  std::lock_guard lock(mutex_);
  // Innermost function per element: paint each file's lines with its ranges, widest
  // first, so narrower (nested: lambdas, local classes) ranges overwrite; among equal
  // widths the smaller name paints last and wins.
  std::vector<std::vector<const FunctionRange*>> function_of(files_.size());
  for (std::size_t fi = 0; fi < files_.size(); ++fi) {
    const File& file = files_[fi];
    auto& owner = function_of[fi];
    owner.assign(file.line_id.size(), nullptr);
    std::vector<const FunctionRange*> ranges;
    for (const auto& f : file.functions) ranges.push_back(&f);
    std::sort(ranges.begin(), ranges.end(), [](const FunctionRange* a, const FunctionRange* b) {
      const auto wa = a->last_line - a->first_line, wb = b->last_line - b->first_line;
      return wa != wb ? wa > wb : a->name > b->name;
    });
    for (const FunctionRange* f : ranges)
      for (std::uint32_t line = f->first_line; line <= f->last_line && line < owner.size(); ++line)
        if (file.line_id[line] != 0) owner[line] = f;
  }

  std::vector<std::uint32_t> order(elements_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Element& x = elements_[a];
    const Element& y = elements_[b];
    if (x.file != y.file) return files_[x.file].name < files_[y.file].name;
    return x.line < y.line;
  });
  std::vector<std::uint32_t> final_id(elements_.size());
  for (const std::uint32_t provisional : order) {
    const Element& e = elements_[provisional];
    const FunctionRange* f = function_of[e.file][e.line];
    final_id[provisional] =
        builder.add_element(files_[e.file].name, e.line, e.line, f ? std::string_view(f->name) : std::string_view{});
  }
  return final_id;
}

}  // namespace dlfl::collect
