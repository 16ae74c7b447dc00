// Where config text comes from: the file system, or a map of names to texts (tests, embedding).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace confeval {

class SourceProvider {
 public:
  virtual ~SourceProvider() = default;

  // The text of `name`, or nullopt when it cannot be read.
  virtual std::optional<std::string> read(const std::string& name) const = 0;

  // The name `target` refers to when @included from `including`: relative targets are taken
  // from the including file's directory, then normalised ("a/../b.conf" is "b.conf").
  virtual std::string resolve(const std::string& including, const std::string& target) const;
};

// Texts held in memory under their names.
class MemorySources : public SourceProvider {
 public:
  MemorySources() = default;
  MemorySources(std::initializer_list<std::pair<const std::string, std::string>> files)
      : files_(files) {}

  void add(const std::string& name, std::string text) { files_[name] = std::move(text); }
  std::optional<std::string> read(const std::string& name) const override;

 private:
  std::map<std::string, std::string> files_;
};

// Files on disk, read whole.
class FileSources : public SourceProvider {
 public:
  std::optional<std::string> read(const std::string& name) const override;
};

}  // namespace confeval
