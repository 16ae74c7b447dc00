"""The seeded-fault switch on the Python side (faults/faults.json): TORCH_EXT_FAULT=<id>
turns one fault on; a faulty statement is the body of `if fault_active("id"):` and carries
a `FAULT(id)` comment."""
import os


def fault_active(fault_id):
    return os.environ.get("TORCH_EXT_FAULT") == fault_id
