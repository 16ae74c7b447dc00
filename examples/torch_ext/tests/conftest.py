"""Shared parameters of the torch_ext suite: dtypes, devices, tolerances, references."""
import os
import sys

import pytest
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# bfloat16 and float16 run on the CPU too: the kernels accumulate them in float.
DTYPES = [torch.float32, torch.float64, torch.bfloat16, torch.float16]
# Per dtype (rtol, atol) against a float64 reference.
TOLERANCES = {torch.float32: (1e-5, 1e-6), torch.float64: (1e-10, 1e-12),
              torch.bfloat16: (1.6e-2, 1e-2), torch.float16: (2e-3, 1e-3)}
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(not torch.cuda.is_available(),
                                                                reason="no CUDA device"))]


def dtype_id(dtype):
    return str(dtype).replace("torch.", "")


def assert_close(actual, expected, dtype):
    rtol, atol = TOLERANCES[dtype]
    torch.testing.assert_close(actual.double(), expected.double(), rtol=rtol, atol=atol)


def make_input(shape, dtype, device, seed=0, magnitude=1.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=g, dtype=torch.float64) * magnitude).to(device=device, dtype=dtype)


@pytest.fixture(params=DTYPES, ids=dtype_id)
def dtype(request):
    return request.param


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param
