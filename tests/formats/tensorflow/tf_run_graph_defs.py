"""Runs GraphDefs under TensorFlow (used by test_tensorflow_interop.py in a subprocess).

    python tf_run_graph_defs.py DIR

DIR holds `cases.json` ([{"name", "inputs": [tensor names], "outputs": [tensor names]}]) and,
per case, `NAME.pb` (a serialized GraphDef) and `NAME.in.npz` (arrays `a0`, `a1`, ...). Each
graph is imported with `tf.graph_util.import_graph_def` inside `tf.compat.v1.wrap_function`,
pruned to its feeds and fetches and called; results go to `NAME.out.npz` (`r0`, ...), or the
error text to `NAME.error.txt`.
"""

import json
import os
import sys

import numpy as np
import tensorflow as tf


def run_case(directory, case):
    name = case["name"]
    graph_def = tf.compat.v1.GraphDef()
    with open(os.path.join(directory, name + ".pb"), "rb") as f:
        graph_def.ParseFromString(f.read())
    feeds = np.load(os.path.join(directory, name + ".in.npz"), allow_pickle=False)
    args = [feeds[f"a{i}"] for i in range(len(case["inputs"]))]

    def imported():
        tf.graph_util.import_graph_def(graph_def, name="")

    wrapped = tf.compat.v1.wrap_function(imported, [])
    graph = wrapped.graph
    fn = wrapped.prune([graph.get_tensor_by_name(n) for n in case["inputs"]],
                       [graph.get_tensor_by_name(n) for n in case["outputs"]])
    results = fn(*[tf.constant(a) for a in args])
    np.savez(os.path.join(directory, name + ".out.npz"),
             **{f"r{i}": r.numpy() for i, r in enumerate(results)})


def main(directory):
    with open(os.path.join(directory, "cases.json")) as f:
        cases = json.load(f)
    for case in cases:
        try:
            run_case(directory, case)
        except Exception as e:  # reported per case to the test
            with open(os.path.join(directory, case["name"] + ".error.txt"), "w") as f:
                f.write(f"{type(e).__name__}: {e}")


if __name__ == "__main__":
    main(sys.argv[1])
