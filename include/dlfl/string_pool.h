// StringPool: interned strings addressed by 32-bit ids, stored as one blob + offsets so
// a pool can be memory-mapped and read without a per-string allocation.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dlfl {

using StringId = std::uint32_t;

class StringPool {
 public:
  // A new pool holding only the empty string, id 0.
  StringPool();
  // A pool over memory that `keeper` keeps alive: string i is bytes
  // [offsets[i], offsets[i+1]) of blob. Throws dlfl::Error when offsets are empty, not
  // monotone or exceed the blob.
  StringPool(std::span<const char> blob, std::span<const std::uint64_t> offsets,
             std::shared_ptr<const void> keeper);

  // Copies and moves keep views valid (owned storage is re-pointed, mapped storage shared).
  StringPool(const StringPool& other);
  StringPool(StringPool&& other) noexcept;
  StringPool& operator=(StringPool other) noexcept;
  ~StringPool() = default;

  std::size_t size() const noexcept { return offsets_.size() - 1; }
  // The string with that id; the view lives as long as the pool is not modified.
  std::string_view operator[](StringId id) const noexcept {
    return {blob_.data() + offsets_[id], offsets_[id + 1] - offsets_[id]};
  }
  // Returns the id of `s`, adding it when new (a mapped pool is copied on first add).
  StringId intern(std::string_view s);

  std::span<const char> blob() const noexcept { return blob_; }
  std::span<const std::uint64_t> offsets() const noexcept { return offsets_; }

 private:
  void make_owned();
  bool owns_storage() const noexcept { return offsets_.data() == own_offsets_.data(); }
  void swap(StringPool& other) noexcept;
  std::shared_ptr<const void> keeper_;
  std::vector<char> own_blob_;
  std::vector<std::uint64_t> own_offsets_;
  std::span<const char> blob_;
  std::span<const std::uint64_t> offsets_;
  std::unordered_map<std::string, StringId> index_;  // built lazily on the first intern()
};

}  // namespace dlfl
