"""Writes `reference.json`: the optimizers' results under TensorFlow 2.21 for every workload in
`workload.CONFIGS`. Run it with a Python that has TensorFlow (never a tracegraph dependency):

    /path/to/python-with-tensorflow tests/training/make_reference.py
"""

import json
import pathlib
import sys

import tensorflow as tf

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import workload  # noqa: E402

out = {"tensorflow": tf.__version__, "steps": workload.STEPS, "results": {}}
for key, spec in workload.CONFIGS.items():
    w, b = workload.train(tf, spec, in_function=True)
    out["results"][key] = {"w": w.ravel().tolist(), "b": b.ravel().tolist()}
path = pathlib.Path(__file__).with_name("reference.json")
path.write_text(json.dumps(out, indent=1) + "\n")
print(f"wrote {path} ({len(out['results'])} workloads)")
