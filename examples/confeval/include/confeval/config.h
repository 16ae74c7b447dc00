// An evaluated configuration: a flat, ordered map from dotted key paths to values, each
// remembering where it was defined.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "confeval/source_location.h"
#include "confeval/value.h"

namespace confeval {

struct ConfigEntry {
  std::string path;
  Value value;
  SourceLocation where;  // of the key that set it; unknown for values set from C++
};

class Config {
 public:
  // Adds `path` at the end, or replaces the value (and location) of an existing key in place.
  void set(const std::string& path, Value value, SourceLocation where = {});

  bool contains(std::string_view path) const { return find(path) != nullptr; }
  const ConfigEntry* entry(std::string_view path) const;
  const Value* find(std::string_view path) const;

  // The value at `path`; AccessError when there is none.
  const Value& at(std::string_view path) const;

  // Typed access: AccessError (located at the key's definition) when the key is missing or
  // holds another type. get_float also accepts an int, as arithmetic does.
  std::int64_t get_int(std::string_view path) const;
  double get_float(std::string_view path) const;
  bool get_bool(std::string_view path) const;
  const std::string& get_string(std::string_view path) const;
  const Value::Array& get_array(std::string_view path) const;

  // The value at `path`, or `fallback` when there is none (a wrong type is still an error
  // for the typed getters, but not here: the fallback is only for absence).
  Value value_or(std::string_view path, Value fallback) const;

  // The last segments of the keys directly under `section` ("" for top-level keys), in
  // definition order: keys_in("server") of server.host, server.tls.port is {"host"}.
  std::vector<std::string> keys_in(std::string_view section) const;

  // Every section that directly holds a key, in order of first definition ("" excluded).
  std::vector<std::string> sections() const;

  const std::vector<ConfigEntry>& entries() const { return entries_; }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  // Same keys with strictly equal values; order and locations are ignored, so a config
  // equals itself read back from its serialization.
  friend bool operator==(const Config& a, const Config& b);

 private:
  const Value& typed(std::string_view path, Type type) const;

  std::vector<ConfigEntry> entries_;
  std::map<std::string, std::size_t, std::less<>> index_;
};

}  // namespace confeval
