"""scaled_softmax: forward against a float64 reference, gradients with gradcheck."""
import pytest
import torch

import torch_ext
from conftest import assert_close, make_input

SHAPES = [(7,), (3, 5), (2, 3, 6)]


def reference(x, dim, scale):
    return torch.softmax(x.double() * scale, dim=dim)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dim", [-1, 0])
@pytest.mark.parametrize("scale", [1.0, 0.5])
@pytest.mark.parametrize("magnitude", ["unit", "large"])
def test_forward(shape, dim, scale, magnitude, dtype, device):
    # Large logits overflow exp() unless the row maximum is subtracted first.
    x = make_input(shape, dtype, device, magnitude=1.0 if magnitude == "unit" else 200.0)
    y = torch_ext.scaled_softmax(x, dim=dim, scale=scale)
    assert y.shape == x.shape and y.dtype == dtype
    assert_close(y, reference(x, dim, scale), dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dim", [-1, 0])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_gradcheck(shape, dim, scale):
    x = make_input(shape, torch.float64, "cpu").requires_grad_()
    assert torch.autograd.gradcheck(lambda t: torch_ext.scaled_softmax(t, dim=dim, scale=scale), (x,))


def test_default_scale_is_one():
    x = make_input((2, 4), torch.float64, "cpu")
    assert_close(torch_ext.scaled_softmax(x), reference(x, -1, 1.0), torch.float64)


def test_rows_sum_to_one(dtype):
    y = torch_ext.scaled_softmax(make_input((4, 9), dtype, "cpu", seed=3))
    assert_close(y.double().sum(-1), torch.ones(4, dtype=torch.float64), dtype)


def test_module(dtype):
    x = make_input((3, 4, 5), dtype, "cpu")
    module = torch_ext.ScaledSoftmax(dim=1, scale=0.25)
    assert_close(module(x), reference(x, 1, 0.25), dtype)
