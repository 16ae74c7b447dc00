// write_schemata(): guards → rewritten texts → clang checks, dropping what does not
// compile → the schemata tree.
#include "dlfl/lab/mutate/schemata.h"

#include <clang/Tooling/CompilationDatabase.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/files/text_file.h"
#include "schemata_check.h"
#include "schemata_guards.h"
#include "schemata_text.h"
#include "source_paths.h"
#include "source_tree_copy.h"

namespace dlfl::mutate {
namespace {

namespace fs = std::filesystem;
using detail::canonical_or_absolute;
using detail::is_under;
using detail::CompileError;
using detail::SchemataText;

// The run's fixed parts: the mutants' files, their guards and the units to check.
class SchemataBuild {
 public:
  SchemataBuild(const std::vector<Mutant>& mutants, const SchemataOptions& o) : mutants_(mutants), o_(o) {
    std::string message;
    db_ = clang::tooling::CompilationDatabase::loadFromDirectory(o.build_dir.string(), message);
    if (!db_) throw Error((o.build_dir / "compile_commands.json").string(), 0, message);
    root_ = canonical_or_absolute(o.root.empty() ? fs::current_path() : o.root);
    for (const Mutant& m : mutants) {
      const fs::path real = canonical_or_absolute(root_ / m.file);
      if (!is_under(real, root_)) throw Error(m.file, m.line, "mutant " + m.id + " is not under " + root_.string());
      paths_.push_back(real.string());
      if (!originals_.count(real.string())) originals_[real.string()] = io::read_file_bytes(real);
    }
    choose_units();
  }

  Schemata run();

 private:
  void log(const std::string& line) const {
    if (o_.log) o_.log(line);
  }
  void choose_units();
  std::map<std::string, SchemataText> render(const std::vector<char>& kept) const;
  std::vector<CompileError> check(const std::map<std::string, SchemataText>& texts) const;
  // Mutants the errors lie in; `unexplained` when some error lies in no mutant's code.
  std::set<std::uint32_t> blame(const std::vector<CompileError>& errors,
                                const std::map<std::string, SchemataText>& texts, bool& unexplained) const;
  std::set<std::uint32_t> narrow_down(std::vector<std::uint32_t> suspects, const std::vector<char>& kept) const;
  void write_tree(const std::map<std::string, SchemataText>& texts, Schemata& out) const;

  const std::vector<Mutant>& mutants_;
  const SchemataOptions& o_;
  std::unique_ptr<clang::tooling::CompilationDatabase> db_;
  fs::path root_;
  std::vector<std::string> paths_;               // per mutant, its file's real path
  std::map<std::string, std::string> originals_;  // real path → original text
  std::vector<std::string> units_;
  std::vector<std::optional<detail::Guard>> guards_;
};

// The units whose files hold mutants, or every unit under root when a mutated file is a
// header (any unit may include it).
void SchemataBuild::choose_units() {
  const fs::path build_dir = canonical_or_absolute(o_.build_dir);
  std::set<std::string> main_files;
  std::vector<std::string> under_root;
  for (const auto& f : db_->getAllFiles()) {
    const fs::path p = canonical_or_absolute(f);
    if (!is_under(p, root_) || is_under(p, build_dir)) continue;
    under_root.push_back(f);
    if (originals_.count(p.string())) {
      units_.push_back(f);
      main_files.insert(p.string());
    }
  }
  const bool headers = std::any_of(originals_.begin(), originals_.end(),
                                   [&](const auto& entry) { return !main_files.count(entry.first); });
  if (headers) units_ = under_root;
}

std::map<std::string, SchemataText> SchemataBuild::render(const std::vector<char>& kept) const {
  std::map<std::string, std::vector<detail::GuardedEdit>> per_file;
  std::set<std::string> c_files;  // files a C unit parses
  for (std::size_t i = 0; i < mutants_.size(); ++i) {
    if (!kept[i]) continue;
    const Mutant& m = mutants_[i];
    const detail::Guard& g = *guards_[i];
    per_file[paths_[i]].push_back({static_cast<std::uint32_t>(i + 1), m.offset, m.original, m.replacement, g.begin,
                                   g.end, g.statement});
    if (g.c_language) c_files.insert(paths_[i]);
  }
  std::map<std::string, SchemataText> out;
  for (auto& [path, edits] : per_file)
    out[path] = detail::rewrite_schemata(originals_.at(path), path, std::move(edits), o_.switch_variable,
                                         c_files.count(path) ? detail::SwitchLanguage::c : detail::SwitchLanguage::cpp);
  return out;
}

std::vector<CompileError> SchemataBuild::check(const std::map<std::string, SchemataText>& texts) const {
  std::map<std::string, std::string> overlays;
  for (const auto& [path, t] : texts) overlays[path] = t.text;
  std::vector<std::string> args = o_.extra_args;
  args.insert(args.end(), std::begin(detail::kMismatchErrors), std::end(detail::kMismatchErrors));
  std::vector<CompileError> errors = detail::compile_errors(*db_, units_, overlays, args);
  // A mismatch counts only where a switch put it (the original code may have its own).
  std::erase_if(errors, [&](const CompileError& e) {
    if (!e.mismatch) return false;
    const auto t = texts.find(e.path);
    if (t == texts.end()) return true;
    return std::none_of(t->second.cluster.begin(), t->second.cluster.end(), [&](const auto& entry) {
      return entry.second.first <= e.offset && e.offset < entry.second.second;
    });
  });
  return errors;
}

std::set<std::uint32_t> SchemataBuild::blame(const std::vector<CompileError>& errors,
                                             const std::map<std::string, SchemataText>& texts,
                                             bool& unexplained) const {
  std::set<std::uint32_t> out;
  unexplained = false;
  auto inside = [](const detail::TextRange& r, std::uint64_t offset) { return r.first <= offset && offset < r.second; };
  for (const CompileError& e : errors) {
    const auto t = texts.find(e.path);
    bool found = false;
    if (t != texts.end()) {
      for (const auto& [number, range] : t->second.alternative)
        if (inside(range, e.offset)) {
          out.insert(number);
          found = true;
        }
      // In a guarded place but in no alternative: the place cannot hold a switch.
      if (!found)
        for (const auto& [number, range] : t->second.cluster)
          if (inside(range, e.offset)) {
            out.insert(number);
            found = true;
          }
    }
    unexplained |= !found;
  }
  return out;
}

// The suspects whose code makes the units fail, found by halving (each half compiled in
// alone with the mutants already known good). Two halves that fail only together are
// both dropped.
std::set<std::uint32_t> SchemataBuild::narrow_down(std::vector<std::uint32_t> suspects,
                                                   const std::vector<char>& kept) const {
  std::vector<char> base = kept;
  for (const std::uint32_t n : suspects) base[n - 1] = 0;
  auto fails = [&](const std::vector<std::uint32_t>& with) {
    std::vector<char> k = base;
    for (const std::uint32_t n : with) k[n - 1] = 1;
    return !check(render(k)).empty();
  };
  if (fails({}))
    throw Error("clang cannot compile the schemata units even without the mutants that are left; the first error: " +
                check(render(base)).front().message);
  std::set<std::uint32_t> out;
  std::vector<std::vector<std::uint32_t>> todo{suspects};
  while (!todo.empty()) {
    std::vector<std::uint32_t> s = std::move(todo.back());
    todo.pop_back();
    if (s.size() == 1) {
      out.insert(s[0]);
      continue;
    }
    const std::vector<std::uint32_t> a(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2));
    const std::vector<std::uint32_t> b(s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
    const bool fa = fails(a), fb = fails(b);
    if (fa) todo.push_back(a);
    if (fb) todo.push_back(b);
    if (!fa && !fb) out.insert(s.begin(), s.end());
  }
  return out;
}

void SchemataBuild::write_tree(const std::map<std::string, SchemataText>& texts, Schemata& out) const {
  const fs::path tree = canonical_or_absolute(o_.tree);
  fs::create_directories(tree);
  std::set<fs::path> rewritten, stale;
  for (const auto& [path, t] : texts) rewritten.insert(tree / fs::path(path).lexically_relative(root_));
  // Files an earlier run rewrote that hold no mutant now: copied afresh.
  const std::string marker = "#ifndef DLFL_SCHEMATA_SWITCH_";
  for (auto it = fs::recursive_directory_iterator(tree); it != fs::recursive_directory_iterator(); ++it) {
    if (!it->is_regular_file() || rewritten.count(it->path())) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::string head(marker.size(), '\0');
    if (in.read(head.data(), static_cast<std::streamsize>(head.size())) && head == marker) stale.insert(it->path());
  }
  instrument::detail::copy_tree(root_, tree, canonical_or_absolute(o_.build_dir), rewritten, stale);
  for (const auto& [path, t] : texts) {
    const fs::path target = tree / fs::path(path).lexically_relative(root_);
    out.rewritten.push_back(target);
    std::error_code ec;
    if (fs::exists(target, ec) && io::read_file_bytes(target) == t.text) continue;  // keeps its time stamp
    fs::create_directories(target.parent_path());
    io::AtomicFile file(target);
    file.stream() << t.text;
    file.commit();
  }
}

Schemata SchemataBuild::run() {
  Schemata out;
  std::vector<char> kept(mutants_.size(), 1);
  std::vector<detail::EditSite> sites;
  for (std::size_t i = 0; i < mutants_.size(); ++i)
    sites.push_back({paths_[i], mutants_[i].offset, mutants_[i].original.size()});
  std::vector<std::string> failed;
  log("finding the guards of " + std::to_string(mutants_.size()) + " mutants in " + std::to_string(units_.size()) +
      " translation units");
  guards_ = detail::find_guards(*db_, units_, sites, o_.extra_args, failed);
  if (!failed.empty()) throw Error(failed.front(), 0, "clang reports errors in this unit without any mutant");
  for (std::size_t i = 0; i < mutants_.size(); ++i)
    if (!guards_[i]) {
      kept[i] = 0;
      ++out.dropped_unguardable;
    }

  std::map<std::string, SchemataText> texts;
  for (unsigned round = 1;; ++round) {
    texts = render(kept);
    for (const auto& [path, t] : texts)
      for (const std::uint32_t n : t.unguardable)
        if (kept[n - 1]) {
          kept[n - 1] = 0;
          ++out.dropped_unguardable;
        }
    const auto errors = check(texts);
    const auto left = static_cast<std::size_t>(std::count(kept.begin(), kept.end(), 1));
    log("round " + std::to_string(round) + ": " + std::to_string(left) + " mutants, " +
        std::to_string(errors.size()) + " clang errors");
    if (errors.empty()) break;
    bool unexplained = false;
    std::set<std::uint32_t> culprits = blame(errors, texts, unexplained);
    if (culprits.empty() || round >= o_.max_rounds) {
      std::vector<std::uint32_t> suspects;
      for (std::size_t i = 0; i < kept.size(); ++i)
        if (kept[i]) suspects.push_back(static_cast<std::uint32_t>(i + 1));
      culprits = narrow_down(suspects, kept);
    }
    for (const std::uint32_t n : culprits)
      if (kept[n - 1]) {
        kept[n - 1] = 0;
        ++out.dropped_uncompilable;
      }
  }
  for (std::size_t i = 0; i < mutants_.size(); ++i)
    if (kept[i]) out.mutants.push_back({static_cast<std::uint32_t>(i + 1), mutants_[i]});
  write_tree(texts, out);
  log("schemata: " + std::to_string(out.mutants.size()) + " mutants compiled in, " +
      std::to_string(out.dropped_uncompilable) + " dropped (do not compile), " +
      std::to_string(out.dropped_unguardable) + " dropped (no place for a switch)");
  return out;
}

}  // namespace

Schemata write_schemata(const std::vector<Mutant>& mutants, const SchemataOptions& options) {
  return SchemataBuild(mutants, options).run();
}

void write_plain_tree(const SchemataOptions& options) {
  const fs::path root = canonical_or_absolute(options.root.empty() ? fs::current_path() : options.root);
  const fs::path tree = canonical_or_absolute(options.tree);
  fs::create_directories(tree);
  const fs::path build_dir = options.build_dir.empty() ? fs::path() : canonical_or_absolute(options.build_dir);
  instrument::detail::copy_tree(root, tree, build_dir, {}, {});
}

}  // namespace dlfl::mutate
