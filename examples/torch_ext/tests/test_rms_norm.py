"""rms_norm: forward against a float64 reference, gradients with gradcheck, the module."""
import pytest
import torch

import torch_ext
from conftest import assert_close, make_input

SHAPES = [(3, 8), (2, 4, 16), (2, 512)]
DEFAULT_EPS = 1e-6  # the documented default (torch_ext/config.py)


def reference(x, weight, eps):
    x = x.double()
    y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    return y * weight.double() if weight is not None else y


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("eps", [None, 1e-3], ids=["eps_default", "eps_1e-3"])
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_forward(shape, eps, affine, dtype, device):
    # Small inputs make eps matter: a wrong default eps shows.
    x = make_input(shape, dtype, device, magnitude=0.05)
    weight = make_input(shape[-1:], dtype, device, seed=1) if affine else None
    y = torch_ext.rms_norm(x, weight, eps)
    assert y.shape == x.shape and y.dtype == dtype
    assert_close(y, reference(x, weight, DEFAULT_EPS if eps is None else eps), dtype)


@pytest.mark.parametrize("shape", SHAPES[:2], ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("grad_of", ["x", "weight", "both"])
def test_gradcheck(shape, grad_of):
    x = make_input(shape, torch.float64, "cpu").requires_grad_(grad_of in ("x", "both"))
    weight = make_input(shape[-1:], torch.float64, "cpu", seed=1).requires_grad_(grad_of in ("weight", "both"))
    assert torch.autograd.gradcheck(lambda a, b: torch_ext.rms_norm(a, b, 1e-3), (x, weight))


@pytest.mark.parametrize("shape", SHAPES[:2], ids=lambda s: "x".join(map(str, s)))
def test_gradcheck_without_weight(shape):
    x = make_input(shape, torch.float64, "cpu").requires_grad_()
    assert torch.autograd.gradcheck(lambda a: torch_ext.rms_norm(a, None, 1e-3), (x,))


def test_module_starts_as_identity_scale(dtype):
    module = torch_ext.RMSNorm(16, dtype=dtype)
    x = make_input((4, 16), dtype, "cpu")
    assert_close(module(x), reference(x, None, DEFAULT_EPS), dtype)


def test_module_without_affine(dtype):
    module = torch_ext.RMSNorm(8, eps=1e-4, elementwise_affine=False)
    x = make_input((2, 8), dtype, "cpu")
    assert module.weight is None
    assert_close(module(x), reference(x, None, 1e-4), dtype)


def test_negative_eps_is_refused():
    with pytest.raises(RuntimeError, match="eps must not be negative"):
        torch_ext.rms_norm(torch.ones(2, 3), None, -1.0)
