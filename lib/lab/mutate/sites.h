// Sites: where the operator families record mutants. It owns every check that keeps a
// mutant honest (text as written: in a macro's use, its arguments or the whole use,
// never its body; no system headers, only selected files, one contiguous edit) and
// turns AST source ranges into byte edits.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dlfl/lab/mutate/operators.h"

namespace dlfl::mutate::detail {

// A mutant as found in one translation unit: the file by its real path, not yet named.
struct RawMutant {
  std::string path;
  std::uint64_t offset = 0;
  std::string original;
  std::string replacement;
  std::uint32_t line = 0, end_line = 0, column = 0;
  Operator op{};
  std::string function;
};

// Whether a file (by real path) may be mutated.
using FileFilter = std::function<bool(const std::string& real_path)>;

// A local variable of a function body and the statement its scope ends with: the block
// that declares it, or the for/if/while/switch whose header does.
struct ScopedVariable {
  const clang::VarDecl* var = nullptr;
  const clang::Stmt* scope = nullptr;
};

// The function whose body is being walked.
struct FunctionContext {
  const clang::FunctionDecl* decl = nullptr;
  std::string qualified_name;       // for the ground truth
  std::string name;                 // unqualified, for the name heuristics
  bool gpu = false;                 // __global__, or __device__ without __host__
  bool gradient = false;            // name looks like a backward/gradient function
  bool broadcast = false;           // name looks like broadcasting logic
  std::set<std::string> variables;  // parameter and local variable names
  std::vector<ScopedVariable> locals;  // in declaration order (lambdas' locals included)
};

class Sites {
 public:
  Sites(clang::ASTContext& context, const std::array<bool, kOperatorCount>& enabled, const FileFilter& filter,
        std::vector<RawMutant>& out);

  clang::ASTContext& context() const { return context_; }
  const clang::SourceManager& sources() const { return sm_; }
  const clang::LangOptions& lang() const { return context_.getLangOpts(); }
  bool on(Operator op) const { return enabled_[static_cast<std::size_t>(op)]; }

  // The function being walked; set by the visitor (never null while operators run).
  const FunctionContext& function() const { return *function_; }
  void set_function(const FunctionContext* f) { function_ = f; }

  // Whether mutants at `loc` would be kept: a file location (not a macro expansion) in a
  // selected, non-system file.
  bool selectable(clang::SourceLocation loc) const;
  // Whether the file `loc` is written in (its expansion, for macros) is selected.
  bool file_selected(clang::SourceLocation loc) const { return selectable(sm_.getExpansionLoc(loc)); }

  // Source text of a token range, or nullopt when it spans files or is not written at
  // one place (part of a macro's body; a range that starts in one macro argument and ends
  // in another). A range inside one argument, or covering a whole macro use, is the text
  // written there.
  std::optional<std::string> text(clang::SourceRange tokens) const;
  std::optional<std::string> text(const clang::Stmt* s) const { return s ? text(s->getSourceRange()) : std::nullopt; }
  // text() in parentheses unless `e` is a primary or postfix expression (a name, literal,
  // call, subscript, member, cast or parenthesised expression), for pasting into a new
  // operator context.
  std::optional<std::string> operand_text(const clang::Expr* e) const;

  // Records: the token range `tokens` becomes `replacement`. Ignored (not an error) when
  // the range is not selectable, the text is unchanged, or it holds a preprocessor line.
  void replace(Operator op, clang::SourceRange tokens, std::string replacement);
  // Records: the characters [begin, end) become `replacement` (file locations).
  void replace_chars(Operator op, clang::SourceLocation begin, clang::SourceLocation end, std::string replacement);
  // Records: `outer` with each inner token range replaced by its text (ordered, disjoint,
  // inside `outer`; otherwise ignored).
  void splice(Operator op, clang::SourceRange outer,
              const std::vector<std::pair<clang::SourceRange, std::string>>& inner);
  // Records the deletion of statement `s` with its ';'; its whole line when nothing else
  // is on it; `;` instead when its parent is not a compound statement (an if body, a case).
  void remove_statement(Operator op, const clang::Stmt* s);

  // The parent statement of `s` (nullptr at a function body's top or under a declaration).
  const clang::Stmt* parent(const clang::Stmt* s) const;
  // The parent, skipping parentheses and implicit casts.
  const clang::Stmt* semantic_parent(const clang::Stmt* s) const;

 private:
  struct FileRange {
    clang::FileID file;
    unsigned begin = 0, end = 0;  // byte offsets, end exclusive
  };
  std::optional<FileRange> file_range(clang::SourceRange tokens) const;
  void record(Operator op, const FileRange& range, std::string replacement);

  clang::ASTContext& context_;
  const clang::SourceManager& sm_;
  const std::array<bool, kOperatorCount>& enabled_;
  const FileFilter& filter_;
  std::vector<RawMutant>& out_;
  const FunctionContext* function_ = nullptr;
  mutable std::map<clang::FileID, std::optional<std::string>> paths_;  // selected files' real paths
};

// --- AST helpers shared by the operator families -------------------------------------

// A binary operation however clang spells it: a BinaryOperator, an overloaded operator
// call with two operands, or a C++20 rewritten comparison.
struct BinaryView {
  clang::BinaryOperatorKind opcode;
  const clang::Expr* lhs;
  const clang::Expr* rhs;
  clang::SourceLocation op_loc;
  bool overloaded = false;  // a call to a user operator (resolved or not)
  bool dependent = false;   // type-dependent (in a template)
};
std::optional<BinaryView> as_binary(const clang::Stmt* s);

// e with parentheses and implicit casts removed (explicit casts stay).
const clang::Expr* strip(const clang::Expr* e);
// e with parentheses and every cast removed.
const clang::Expr* strip_casts(const clang::Expr* e);

// The name an expression refers to: a variable, parameter, field or enumerator (also in
// templates), looking through parentheses and implicit casts; empty otherwise.
std::string referenced_name(const clang::Expr* e);

// The name at the root of an access path: `strides[k][d]` → strides, `g.out_h` → out_h,
// `x.stride(0)` → stride, `shape()[0]` → shape; through casts. Empty when there is none.
std::string base_name(const clang::Expr* e);

// "threadIdx", "blockIdx", "blockDim", "gridDim" when e is one of them or a component
// (threadIdx.x), through casts; empty otherwise.
std::string cuda_builtin(const clang::Expr* e);

// The value of an integer literal, also negated (`-1`); nullopt otherwise.
std::optional<std::int64_t> integer_literal(const clang::Expr* e);

// Whether e's type is a builtin arithmetic type (not dependent, not a class).
bool is_scalar_arithmetic(const clang::Expr* e);
bool is_integer(const clang::Expr* e);

// Name of the called function (unqualified), also for unresolved calls in templates.
std::string callee_name(const clang::CallExpr* call);

}  // namespace dlfl::mutate::detail
