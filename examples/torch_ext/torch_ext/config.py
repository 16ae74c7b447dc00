"""Defaults of the torch_ext operators, resolved at call time so an environment override
(TORCH_EXT_GELU_APPROXIMATE=tanh) applies to modules built before it was set."""
import dataclasses
import os

from torch_ext._faults import fault_active


@dataclasses.dataclass(frozen=True)
class Defaults:
    rms_eps: float  # added to mean(x^2) before the square root
    softmax_scale: float  # logits are multiplied by it before the softmax
    gelu_approximate: str  # "none" (erf) or "tanh"


def defaults():
    """The defaults an operator uses for the arguments it was not given."""
    rms_eps = 1e-6
    if fault_active("rms_eps_default"):
        rms_eps = 1e-2  # FAULT(rms_eps_default)
    approximate = os.environ.get("TORCH_EXT_GELU_APPROXIMATE", "none")
    if approximate not in ("none", "tanh"):
        raise ValueError("TORCH_EXT_GELU_APPROXIMATE must be none or tanh, not %r" % approximate)
    return Defaults(rms_eps=rms_eps, softmax_scale=1.0, gelu_approximate=approximate)
