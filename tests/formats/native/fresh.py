"""Running code in a fresh Python process that cannot import the test modules.

The child imports tracegraph from this worktree and nothing from `tests`: an import hook makes
any `tests` module (where the saved functions were defined) unimportable, so a load that
needed the Python source would fail.
"""

import base64
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[3]

_PRELUDE = textwrap.dedent('''
    import importlib.abc, sys
    class _NoTests(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "tests" or name.startswith("tests."):
                raise ImportError(f"{name} must not be imported by a loader")
            return None
    sys.meta_path.insert(0, _NoTests())
    sys.path = [p for p in sys.path if p not in ("", ".")]
''')


def run_fresh(code: str, cwd, timeout: float = 120) -> str:
    """Runs `code` (after the import guard) in a new interpreter; returns its stdout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", _PRELUDE + textwrap.dedent(code)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise AssertionError(f"fresh process failed:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


def encode_array(value) -> dict:
    arr = np.asarray(value)
    if arr.dtype == object:
        return {"dtype": "object", "shape": list(arr.shape),
                "strings": [base64.b64encode(v).decode() for v in arr.reshape(-1)]}
    return {"dtype": arr.dtype.str, "shape": list(arr.shape),
            "data": base64.b64encode(arr.tobytes()).decode()}


def decode_array(meta) -> np.ndarray:
    if meta["dtype"] == "object":
        out = np.empty(len(meta["strings"]), dtype=object)
        for i, s in enumerate(meta["strings"]):
            out[i] = base64.b64decode(s)
        return out.reshape(meta["shape"])
    raw = base64.b64decode(meta["data"])
    return np.frombuffer(raw, dtype=np.dtype(meta["dtype"])).reshape(meta["shape"])


# The child's side: load each case, make its calls, print results as JSON.
CALL_CASES = '''
    import base64, json, sys
    import numpy as np
    import tracegraph as tf

    def enc(value):
        arr = np.asarray(value)
        if arr.dtype == object:
            return {"dtype": "object", "shape": list(arr.shape),
                    "strings": [base64.b64encode(v).decode() for v in arr.reshape(-1)]}
        return {"dtype": arr.dtype.str, "shape": list(arr.shape),
                "data": base64.b64encode(arr.tobytes()).decode()}

    def dec(meta):
        if meta["dtype"] == "object":
            out = np.empty(len(meta["strings"]), dtype=object)
            for i, s in enumerate(meta["strings"]):
                out[i] = base64.b64decode(s)
            return out.reshape(meta["shape"])
        raw = base64.b64decode(meta["data"])
        return np.frombuffer(raw, dtype=np.dtype(meta["dtype"])).reshape(meta["shape"])

    def arg(a):
        return tf.constant(dec(a["array"])) if "array" in a else a["py"]

    def get(obj, path):
        for part in path.split("."):
            obj = obj[int(part)] if isinstance(obj, list) else getattr(obj, part)
        return obj

    cases = json.load(open("cases.json"))
    results = {}
    for case in cases:
        loaded = tf.saved_model.load(case["dir"])
        outs = []
        for call in case["calls"]:
            fn = get(loaded, call["attr"])
            if call.get("signature"):
                fn = loaded.signatures[call["signature"]]
                out = fn(**{k: arg(v) for k, v in call["kwargs"].items()})
            else:
                out = fn(*[arg(a) for a in call["args"]])
            outs.append([enc(t.numpy()) for t in tf.nest.flatten(out)])
        variables = {v.name + "#" + str(i): enc(v.numpy())
                     for i, v in enumerate(loaded.variables)}
        results[case["name"]] = {"outputs": outs, "variables": variables}
    print(json.dumps(results))
'''


def run_cases(cases: list, workdir) -> dict:
    """Loads and calls every case in one fresh process; returns its results by case name."""
    path = pathlib.Path(workdir) / "cases.json"
    path.write_text(json.dumps(cases))
    out = run_fresh(CALL_CASES, workdir)
    return json.loads(out)
