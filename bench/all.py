"""Every workload of bench/ in one run (eager, function, autograph, grappler, jit, parallel,
training, tensor_array, saved_model), e.g. quiet and with one busy process per core beside it,
TensorFlow's under the same load:

    python bench/all.py --busy 2 --rounds 3 --compare ~/.cache/tracegraph-tf221/bin/python
"""

import importlib

from harness import main

MODULES = ["eager", "function", "autograph", "grappler", "jit", "parallel", "training",
           "tensor_array", "saved_model"]

WORKLOADS = []
for _name in MODULES:
    for _w in importlib.import_module(_name).WORKLOADS:
        _w.name = f"{_name}: {_w.name}"
        WORKLOADS.append(_w)

if __name__ == "__main__":
    main("Every workload of bench/", WORKLOADS)
