// Config lookup and typed access.
#include "confeval/config.h"

#include <algorithm>

#include "confeval/error.h"
#include "confeval/path.h"

namespace confeval {

void Config::set(const std::string& path, Value value, SourceLocation where) {
  const auto it = index_.find(path);
  if (it != index_.end()) {
    entries_[it->second].value = std::move(value);
    entries_[it->second].where = std::move(where);
    return;
  }
  index_.emplace(path, entries_.size());
  entries_.push_back({path, std::move(value), std::move(where)});
}

const ConfigEntry* Config::entry(std::string_view path) const {
  const auto it = index_.find(path);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

const Value* Config::find(std::string_view path) const {
  const ConfigEntry* e = entry(path);
  return e == nullptr ? nullptr : &e->value;
}

const Value& Config::at(std::string_view path) const {
  const Value* value = find(path);
  if (value == nullptr) {
    throw AccessError("no key '" + std::string(path) + "'", {});
  }
  return *value;
}

const Value& Config::typed(std::string_view path, Type type) const {
  const ConfigEntry* e = entry(path);
  if (e == nullptr) {
    throw AccessError("no key '" + std::string(path) + "'", {});
  }
  if (e->value.type() != type) {
    throw AccessError("key '" + std::string(path) + "' is " +
                          std::string(type_name(e->value.type())) + ", not " +
                          std::string(type_name(type)),
                      e->where);
  }
  return e->value;
}

std::int64_t Config::get_int(std::string_view path) const {
  return typed(path, Type::Int).as_int();
}

double Config::get_float(std::string_view path) const {
  const Value* value = find(path);
  if (value != nullptr && value->is_int()) {
    return value->as_number();
  }
  return typed(path, Type::Float).as_float();
}

bool Config::get_bool(std::string_view path) const { return typed(path, Type::Bool).as_bool(); }

const std::string& Config::get_string(std::string_view path) const {
  return typed(path, Type::String).as_string();
}

const Value::Array& Config::get_array(std::string_view path) const {
  return typed(path, Type::Array).as_array();
}

Value Config::value_or(std::string_view path, Value fallback) const {
  const Value* value = find(path);
  return value == nullptr ? std::move(fallback) : *value;
}

std::vector<std::string> Config::keys_in(std::string_view section) const {
  std::vector<std::string> keys;
  for (const ConfigEntry& e : entries_) {
    if (parent_path(e.path) == section) {
      keys.emplace_back(last_segment(e.path));
    }
  }
  return keys;
}

std::vector<std::string> Config::sections() const {
  std::vector<std::string> result;
  for (const ConfigEntry& e : entries_) {
    const std::string parent(parent_path(e.path));
    if (!parent.empty() && std::find(result.begin(), result.end(), parent) == result.end()) {
      result.push_back(parent);
    }
  }
  return result;
}

bool operator==(const Config& a, const Config& b) {
  if (a.size() != b.size()) {
    return false;
  }
  return std::all_of(a.entries_.begin(), a.entries_.end(), [&b](const ConfigEntry& e) {
    const Value* other = b.find(e.path);
    return other != nullptr && *other == e.value;
  });
}

}  // namespace confeval
