"""torch_ext: a PyTorch C++ extension with seeded faults, dlfl's example of localizing
faults across Python and C++ (README.md). The compiled module torch_ext_C is built by
build.py and must be importable (PYTHONPATH=BUILD_DIR)."""
from torch_ext.functional import bias_gelu, rms_norm, scaled_softmax  # noqa: F401
from torch_ext.modules import BiasGeLU, Block, RMSNorm, ScaledSoftmax  # noqa: F401
