"""nn.Module front-ends of the torch_ext operators."""
import torch
from torch import nn

from torch_ext import functional as F
from torch_ext._faults import fault_active


class RMSNorm(nn.Module):
    def __init__(self, size, eps=None, elementwise_affine=True, dtype=None):
        super().__init__()
        self.size, self.eps = size, eps
        self.weight = nn.Parameter(torch.empty(size, dtype=dtype)) if elementwise_affine else None
        self.reset_parameters()

    def reset_parameters(self):
        if self.weight is None:
            return
        if fault_active("rms_module_init"):
            nn.init.zeros_(self.weight)  # FAULT(rms_module_init)
        else:
            nn.init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.weight, self.eps)


class BiasGeLU(nn.Module):
    def __init__(self, size, approximate=None, dtype=None):
        super().__init__()
        self.approximate = approximate
        self.bias = nn.Parameter(torch.zeros(size, dtype=dtype))

    def forward(self, x):
        return F.bias_gelu(x, self.bias, self.approximate)


class ScaledSoftmax(nn.Module):
    def __init__(self, dim=-1, scale=None):
        super().__init__()
        self.dim, self.scale = dim, scale

    def forward(self, x):
        return F.scaled_softmax(x, self.dim, self.scale)


class Block(nn.Module):
    """RMSNorm -> Linear -> BiasGeLU -> ScaledSoftmax: the operators used together."""

    def __init__(self, size, dtype=None):
        super().__init__()
        self.norm = RMSNorm(size, dtype=dtype)
        self.proj = nn.Linear(size, size, bias=False, dtype=dtype)
        self.act = BiasGeLU(size, dtype=dtype)
        self.softmax = ScaledSoftmax(scale=size ** -0.5)

    def forward(self, x):
        return self.softmax(self.act(self.proj(self.norm(x))))
