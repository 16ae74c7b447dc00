"""Autograd functions over the C++ operators of torch_ext_C, and their functional API.

The C++ operators reduce over the last dimension of contiguous tensors; the wrappers move
the reduced dimension last, flatten leading dimensions where needed and undo both.
"""
import torch

from torch_ext._ops import ops as _C
from torch_ext._faults import fault_active
from torch_ext.config import defaults

_APPROXIMATE_CODES = {"none": 0, "tanh": 1}


class ScaledSoftmaxFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        y = _C.softmax_forward(x.contiguous(), float(scale))
        ctx.save_for_backward(y)
        ctx.scale = float(scale)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        (y,) = ctx.saved_tensors
        return _C.softmax_backward(grad_y.contiguous(), y, ctx.scale), None


class RMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        x = x.contiguous()
        y, rstd = _C.rms_norm_forward(x, weight, float(eps))
        ctx.save_for_backward(x, weight, rstd)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        x, weight, rstd = ctx.saved_tensors
        grad_x, grad_weight = _C.rms_norm_backward(grad_y.contiguous(), x, weight, rstd)
        wants_weight = ctx.needs_input_grad[1]
        if fault_active("rms_weight_needs_grad"):
            wants_weight = ctx.needs_input_grad[0]  # FAULT(rms_weight_needs_grad)
        return (grad_x if ctx.needs_input_grad[0] else None), (grad_weight if wants_weight else None), None


class BiasGeLUFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bias, approximate):
        x = x.contiguous()
        ctx.save_for_backward(x, bias)
        ctx.approximate = approximate
        return _C.bias_gelu_forward(x, bias.contiguous(), approximate)

    @staticmethod
    def backward(ctx, grad_y):
        x, bias = ctx.saved_tensors
        grad_x, grad_bias = _C.bias_gelu_backward(grad_y.contiguous(), x, bias.contiguous(), ctx.approximate)
        return grad_x, grad_bias, None


def scaled_softmax(x, dim=-1, scale=None):
    """softmax(scale * x) along `dim` (default scale: config.defaults().softmax_scale)."""
    if scale is None:
        scale = defaults().softmax_scale
    if x.dim() == 0 or dim % x.dim() == x.dim() - 1:
        return ScaledSoftmaxFunction.apply(x, scale)
    dim = dim % x.dim()
    y = ScaledSoftmaxFunction.apply(x.movedim(dim, -1), scale)
    if fault_active("softmax_dim_restore"):
        return y.transpose(-1, dim)  # FAULT(softmax_dim_restore)
    return y.movedim(-1, dim)


def rms_norm(x, weight=None, eps=None):
    """x / sqrt(mean(x^2, -1) + eps) * weight (default eps: config.defaults().rms_eps)."""
    if eps is None:
        eps = defaults().rms_eps
    return RMSNormFunction.apply(x, weight, eps)


def bias_gelu(x, bias, approximate=None):
    """gelu(x + bias), bias over the last dimension; approximate "none" (erf) or "tanh"."""
    if approximate is None:
        approximate = defaults().gelu_approximate
    if approximate not in _APPROXIMATE_CODES:
        raise ValueError("approximate must be 'none' or 'tanh', not %r" % (approximate,))
    code = _APPROXIMATE_CODES[approximate]
    if x.dim() == 0:
        raise ValueError("bias_gelu needs at least one dimension")
    return BiasGeLUFunction.apply(x, bias, code)
