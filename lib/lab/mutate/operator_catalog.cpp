// The operator catalog: what each operator matches and what it writes instead. The
// matching code lives in one file per family (gpu_, training_, tensor_, paired_name_,
// traditional_operators.cpp); the summaries here are what `--list-operators` prints.
#include <algorithm>
#include <array>

#include "dlfl/error.h"
#include "dlfl/lab/mutate/operators.h"

namespace dlfl::mutate {
namespace {

using enum Operator;
using enum BugType;

constexpr std::array<OperatorInfo, kOperatorCount> kCatalog = {{
    {remove_syncthreads, "remove_syncthreads", gpu, "delete a `__syncthreads();` / `__syncwarp(...);` statement"},
    {remove_bounds_check, "remove_bounds_check", gpu,
     "in __global__/__device__ code drop a comparison guard: `if (i < n) S` -> `S`, `if (i >= n) return;` "
     "deleted, `i < n ? a[i] : 0` -> `a[i]`"},
    {thread_index_off_by_one, "thread_index_off_by_one", gpu,
     "`blockIdx.x * blockDim.x + threadIdx.x` (any product with blockIdx plus an offset) -> `(... + 1)` and "
     "`(... - 1)`"},
    {ceil_div, "ceil_div", gpu,
     "`(n + b - 1) / b`, `(n + 255) / 256` or `(n - 1) / b + 1` -> `n / b`, in CUDA files or where "
     "grid/block/tile/thread/warp names appear"},
    {gradient_sign, "gradient_sign", training,
     "in functions named *backward*/*grad*: `+=` <-> `-=`; `d = E` / `return E` -> `-(E)` for gradient "
     "targets (grad* names, or dX where X is a variable)"},
    {gradient_scale, "gradient_scale", training,
     "same sites as gradient_sign (scalar, non-template types): `E` -> `2 * (E)`"},
    {optimizer_momentum, "optimizer_momentum", training,
     "`beta * m + E` / `momentum * v + g` -> `E` / `g`: the momentum (decay) term is dropped"},
    {optimizer_bias_correction, "optimizer_bias_correction", training,
     "`1 - pow(beta, t)` -> `1`; `X / bias_correction` -> `X`"},
    {optimizer_learning_rate, "optimizer_learning_rate", training,
     "learning rate (lr, learning_rate) as a factor: `lr * g` -> `g` (not applied) and -> `lr * lr * g` "
     "(applied twice); `lr / c` -> `1.0 / c`"},
    {remove_epsilon, "remove_epsilon", numerics, "`A + eps` -> `A` (eps, epsilon, kEps, ... names)"},
    {misplace_epsilon, "misplace_epsilon", numerics, "`sqrt(A + eps)` -> `(sqrt(A) + eps)` and back"},
    {swap_strides, "swap_strides", tensor,
     "`i * stride0 + j * stride1` -> `i * stride1 + j * stride0` (adjacent terms, stride/pitch/ld names)"},
    {transpose_index, "transpose_index", tensor,
     "row-major index `i * n + j` -> `j * n + i` (integers, no literals, no CUDA built-ins)"},
    {swap_dims, "swap_dims", tensor,
     "`shape[0]` <-> `shape[1]`, `[2]` <-> `[3]`, `size(-1)` <-> `size(-2)` on shape/dims/size/stride/extent "
     "names"},
    {swap_height_width, "swap_height_width", tensor,
     "identifier with h/height/rows/kh... -> its w/width/cols/kw... counterpart declared in scope"},
    {broadcast_rule, "broadcast_rule", tensor,
     "in functions named *broadcast*/*expand*: `d == 1` <-> `d != 1`; `a[i - lead]` / `a[lead + i]` -> "
     "`a[i]` (dimensions aligned left instead of right)"},
    {dtype_narrowing, "dtype_narrowing", tensor,
     "local `double` -> `float` / `int`, `float` -> `int` (-> `__half` in CUDA device code when __half is "
     "declared)"},
    {reduction_axis, "reduction_axis", api, "argument of an axis/axes/dim parameter: `k` -> `k + 1` and `k - 1`"},
    {swap_in_out, "swap_in_out", model,
     "identifier with an in/out word (fan_in, in_channels) -> its counterpart declared in scope"},
    {loop_bound, "loop_bound", traditional, "`<` <-> `<=`, `>` <-> `>=` in for/while/do conditions"},
    {negate_condition, "negate_condition", traditional, "if/while/for/do/?: condition `c` -> `!(c)`, `!c` -> `c`"},
    {relational_replace, "relational_replace", traditional,
     "each of < <= > >= == != -> the five others (== <-> != only for pointers and class types)"},
    {logical_replace, "logical_replace", traditional, "`&&` <-> `||`"},
    {arithmetic_replace, "arithmetic_replace", traditional,
     "`+` <-> `-`, `*` <-> `/`, `%` -> `/`, `+=` <-> `-=`, `*=` <-> `/=` (type-valid only)"},
    {constant_replace, "constant_replace", traditional,
     "decimal literal 0 -> 1, 1 -> 0 and 2, n -> n - 1 and n + 1; true <-> false"},
    {delete_statement, "delete_statement", traditional,
     "delete an expression statement (call, assignment, increment), never a declaration"},
    {swap_arguments, "swap_arguments", traditional,
     "swap adjacent call arguments of the same type (not for symmetric functions such as max)"},
    {unary_delete, "unary_delete", traditional,
     "drop a unary operator on a number: `-e` -> `e`, `~e` -> `e`, `!e` -> `e` (in a condition the "
     "edit is negate_condition's)"},
    {increment_replace, "increment_replace", traditional, "`++` <-> `--`, prefix and postfix, on numbers"},
    {argument_replace, "argument_replace", traditional,
     "a variable passed to a call -> another variable of its type in scope there (a parameter, or a "
     "local declared before the call)"},
}};

constexpr bool catalog_in_enum_order() {
  for (std::size_t i = 0; i < kCatalog.size(); ++i)
    if (static_cast<std::size_t>(kCatalog[i].id) != i) return false;
  return true;
}
static_assert(catalog_in_enum_order(), "kCatalog must list the operators in Operator order");

}  // namespace

std::span<const OperatorInfo> operator_catalog() { return kCatalog; }

const OperatorInfo& operator_info(Operator op) { return kCatalog[static_cast<std::size_t>(op)]; }

std::vector<Operator> select_operators(const std::vector<std::string>& items) {
  std::array<bool, kOperatorCount> chosen{};
  bool any = false;
  for (const auto& item : items) {
    std::string_view rest = item;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::string_view name = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (name.empty()) continue;
      any = true;
      bool known = false;
      const auto type = parse_bug_type(name);
      for (const auto& info : kCatalog) {
        if (name == "all" || info.name == name || (type && info.bug_type == *type) ||
            (name == "dl" && is_dl(info.bug_type))) {
          chosen[static_cast<std::size_t>(info.id)] = true;
          known = true;
        }
      }
      if (!known && name != "all")
        throw Error("unknown mutation operator '" + std::string(name) +
                    "' (see --list-operators; bug types and 'dl' select groups)");
    }
  }
  std::vector<Operator> out;
  for (const auto& info : kCatalog)
    if (!any || chosen[static_cast<std::size_t>(info.id)]) out.push_back(info.id);
  return out;
}

}  // namespace dlfl::mutate
