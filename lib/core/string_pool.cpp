// StringPool: interned strings as one blob + offsets.
#include "dlfl/string_pool.h"

#include <string>

#include "dlfl/error.h"

namespace dlfl {

StringPool::StringPool() : own_offsets_{0, 0} {
  blob_ = own_blob_;
  offsets_ = own_offsets_;
}

StringPool::StringPool(std::span<const char> blob, std::span<const std::uint64_t> offsets,
                       std::shared_ptr<const void> keeper)
    : keeper_(std::move(keeper)), blob_(blob), offsets_(offsets) {
  if (offsets.size() < 2 || offsets[0] != 0 || offsets[1] != 0)
    throw Error("string pool: must start with the empty string");
  for (std::size_t i = 1; i < offsets.size(); ++i)
    if (offsets[i] < offsets[i - 1] || offsets[i] > blob.size())
      throw Error("string pool: offset " + std::to_string(i) + " out of order or past the end");
}

StringPool::StringPool(const StringPool& other)
    : keeper_(other.keeper_), own_blob_(other.own_blob_), own_offsets_(other.own_offsets_),
      blob_(other.blob_), offsets_(other.offsets_), index_(other.index_) {
  if (other.owns_storage()) {
    blob_ = own_blob_;
    offsets_ = own_offsets_;
  }
}

StringPool::StringPool(StringPool&& other) noexcept : StringPool() { swap(other); }

StringPool& StringPool::operator=(StringPool other) noexcept {
  swap(other);
  return *this;
}

// Moving a std::vector keeps its buffer, so spans into owned storage stay valid.
void StringPool::swap(StringPool& other) noexcept {
  std::swap(keeper_, other.keeper_);
  own_blob_.swap(other.own_blob_);
  own_offsets_.swap(other.own_offsets_);
  std::swap(blob_, other.blob_);
  std::swap(offsets_, other.offsets_);
  index_.swap(other.index_);
}

void StringPool::make_owned() {
  if (!owns_storage()) {
    own_blob_.assign(blob_.begin(), blob_.end());
    own_offsets_.assign(offsets_.begin(), offsets_.end());
    keeper_.reset();
    blob_ = own_blob_;
    offsets_ = own_offsets_;
  }
  if (index_.size() + 1 < size())
    for (StringId id = 1; id < size(); ++id) index_.emplace(std::string((*this)[id]), id);
}

StringId StringPool::intern(std::string_view s) {
  if (s.empty()) return 0;
  make_owned();
  if (auto it = index_.find(std::string(s)); it != index_.end()) return it->second;
  if (size() >= 0xFFFFFFFFu) throw Error("string pool: more than 2^32 - 1 distinct strings");
  const auto id = static_cast<StringId>(size());
  own_blob_.insert(own_blob_.end(), s.begin(), s.end());
  own_offsets_.push_back(own_blob_.size());
  blob_ = own_blob_;
  offsets_ = own_offsets_;
  index_.emplace(std::string(s), id);
  return id;
}

}  // namespace dlfl
