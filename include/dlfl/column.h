// Column<T>: a flat array that is either owned or a view into memory kept alive by
// someone else (a memory-mapped file), so big spectra are used in place, never copied.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace dlfl {

template <class T>
class Column {
 public:
  Column() = default;
  // Takes ownership of the values.
  Column(std::vector<T> values)  // NOLINT: implicit on purpose, a vector is a column
      : owned_(std::make_shared<std::vector<T>>(std::move(values))),
        view_(owned_->data(), owned_->size()) {}
  // A view into memory that `keeper` keeps alive (e.g. a mapping); no copy is made.
  Column(std::span<const T> view, std::shared_ptr<const void> keeper)
      : keeper_(std::move(keeper)), view_(view) {}

  std::span<const T> span() const noexcept { return view_; }
  const T* data() const noexcept { return view_.data(); }
  std::size_t size() const noexcept { return view_.size(); }
  bool empty() const noexcept { return view_.empty(); }
  const T& operator[](std::size_t i) const noexcept { return view_[i]; }
  auto begin() const noexcept { return view_.begin(); }
  auto end() const noexcept { return view_.end(); }
  // True when the memory belongs to something else (e.g. a mapped file).
  bool is_view() const noexcept { return owned_ == nullptr && !view_.empty(); }

 private:
  std::shared_ptr<std::vector<T>> owned_;
  std::shared_ptr<const void> keeper_;
  std::span<const T> view_;
};

}  // namespace dlfl
