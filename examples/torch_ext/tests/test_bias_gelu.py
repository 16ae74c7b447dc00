"""bias_gelu: forward against torch's gelu, gradients with gradcheck, the module, options."""
import pytest
import torch

import torch_ext
from conftest import assert_close, make_input

SHAPES = [(5,), (3, 6), (2, 3, 4)]


def reference(x, bias, approximate):
    return torch.nn.functional.gelu(x.double() + bias.double(), approximate=approximate)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_forward(shape, approximate, dtype, device):
    x = make_input(shape, dtype, device, magnitude=2.0)
    bias = make_input(shape[-1:], dtype, device, seed=1)
    y = torch_ext.bias_gelu(x, bias, approximate)
    assert y.shape == x.shape and y.dtype == dtype
    assert_close(y, reference(x, bias, approximate), dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gradcheck(shape, approximate):
    x = make_input(shape, torch.float64, "cpu", magnitude=2.0).requires_grad_()
    bias = make_input(shape[-1:], torch.float64, "cpu", seed=1).requires_grad_()
    assert torch.autograd.gradcheck(lambda a, b: torch_ext.bias_gelu(a, b, approximate), (x, bias))


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_default_approximation_from_environment(approximate, monkeypatch):
    monkeypatch.setenv("TORCH_EXT_GELU_APPROXIMATE", approximate)
    x, bias = make_input((3, 4), torch.float64, "cpu"), torch.zeros(4, dtype=torch.float64)
    assert_close(torch_ext.bias_gelu(x, bias), reference(x, bias, approximate), torch.float64)


def test_unknown_approximation_is_refused():
    with pytest.raises(ValueError, match="approximate must be"):
        torch_ext.bias_gelu(torch.ones(3), torch.zeros(3), "sigmoid")


def test_module(dtype):
    module = torch_ext.BiasGeLU(6, approximate="tanh", dtype=dtype)
    x = make_input((2, 6), dtype, "cpu")
    assert_close(module(x), reference(x, torch.zeros(6), "tanh"), dtype)
