// The loader: a depth-first walk over @include directives with cycle detection.
#include "confeval/loader.h"

#include <algorithm>

#include "confeval/error.h"
#include "confeval/evaluator.h"

namespace confeval {

namespace {

class Loader {
 public:
  Loader(const SourceProvider& sources, const LoadOptions& options)
      : sources_(sources), options_(options) {}

  Program run(const std::string& root) {
    load(root, {root, 0, 0});
    return std::move(program_);
  }

 private:
  // `from` is where the file was asked for: the @include, or the root file itself.
  void load(const std::string& name, const SourceLocation& from) {
    if (std::find(stack_.begin(), stack_.end(), name) != stack_.end()) {
      std::string chain;
      for (const std::string& file : stack_) {
        chain += file + " -> ";
      }
      throw IncludeError("include cycle: " + chain + name, from);
    }
    if (static_cast<int>(stack_.size()) > options_.max_include_depth) {
      throw IncludeError("includes nested deeper than " +
                             std::to_string(options_.max_include_depth) + " levels",
                         from);
    }
    std::optional<std::string> text = sources_.read(name);
    if (!text) {
      throw IncludeError("cannot read '" + name + "'", from);
    }
    const std::string& stored = program_.sources[name] = std::move(*text);
    const Document document = parse_document(stored, name);
    stack_.push_back(name);
    for (const Statement& statement : document.statements) {
      if (const auto* include = std::get_if<Include>(&statement)) {
        load(sources_.resolve(name, include->target), include->where);
      } else {
        program_.assignments.push_back(std::get<Assignment>(statement));
      }
    }
    stack_.pop_back();
  }

  const SourceProvider& sources_;
  const LoadOptions& options_;
  Program program_;
  std::vector<std::string> stack_;  // the files being loaded, root first
};

}  // namespace

Program load_program(const std::string& root, const SourceProvider& sources,
                     const LoadOptions& options) {
  return Loader(sources, options).run(root);
}

Config load_config(const std::string& root, const SourceProvider& sources,
                   const LoadOptions& options) {
  return evaluate(load_program(root, sources, options).assignments);
}

Config parse_config(std::string_view text, const std::string& file) {
  MemorySources sources;
  sources.add(file, std::string(text));
  return load_config(file, sources);
}

}  // namespace confeval
