"""Side-by-side benchmark harness: the same workload code under tracegraph and TensorFlow.

A benchmark script defines workloads as functions of the module under test (`tf`), each
returning the callable to time. Run a script with `--module tracegraph` (default) or
`--module tensorflow`; with `--compare PYTHON` (or when `TRACEGRAPH_TF_PYTHON` names an
interpreter that has TensorFlow, e.g. /tmp/tfenv/bin/python) it also runs itself under that
interpreter and prints both columns with their ratio. A workload may give a bare-NumPy floor.

`--busy N` measures every workload twice, quiet and with N busy processes beside it (bench/busy.py:
they spin on the CPU, end by themselves and are stopped when the run ends), TensorFlow's under
the same load too, and prints both medians side by side with the load averages; `--rounds R`
repeats quiet and busy R times and reports the median of the rounds' medians.

Timings are medians of `repeat` runs of `number` calls each, in microseconds per call.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_TF_NOISE = ("WARNING", "I0000", "E0000", "W0000")


@dataclass
class Workload:
    name: str
    make: Callable           # make(tf) -> callable to time
    number: int = 1000       # calls per repeat
    repeat: int = 7
    numpy: Callable | None = None  # make() -> callable: the bare-NumPy floor
    note: str = ""


def median_us(fn: Callable, number: int, repeat: int) -> float:
    """Median over `repeat` runs of the time per call, in microseconds."""
    fn()  # warm up (traces, caches)
    _settle()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times) * 1e6


def _settle() -> None:
    """Lets tracegraph's background work end before timing (jit kernels compile on a thread
    while the first calls are answered op by op): steady calls are what is measured."""
    jit_build = sys.modules.get("tracegraph.execute.jit_build")
    if jit_build is not None:
        jit_build.wait_for_kernels(600)


def load(module: str):
    if module == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    return importlib.import_module(module)


def measure(workloads: list[Workload], module: str) -> dict:
    tf = load(module)
    out = {}
    for w in workloads:
        try:
            out[w.name] = median_us(w.make(tf), w.number, w.repeat)
        except Exception as e:  # a workload TF cannot run is reported, not fatal
            out[w.name] = f"error: {type(e).__name__}: {e}"[:120]
    return out


def floors(workloads: list[Workload]) -> dict:
    return {w.name: median_us(w.numpy(), w.number, w.repeat) for w in workloads if w.numpy}


def _tf_python(args) -> str | None:
    if args.compare:
        return args.compare
    env = os.environ.get("TRACEGRAPH_TF_PYTHON")
    if env:
        return env
    try:
        importlib.util.find_spec("tensorflow")
    except (ImportError, ValueError):
        return None
    return sys.executable if importlib.util.find_spec("tensorflow") else None


def run_other(python: str, script: str, extra: list[str]) -> dict:
    cmd = [python, script, "--module", "tensorflow", "--json", *extra]
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        tail = "\n".join(x for x in proc.stderr.splitlines() if not x.startswith(_TF_NOISE))
        raise RuntimeError(f"TensorFlow run failed:\n{tail[-2000:]}")
    return json.loads(lines[-1])


def _fmt(v) -> str:
    if isinstance(v, str):
        return v
    if v is None:
        return "-"
    return f"{v:,.2f}" if v < 100 else f"{v:,.1f}"


def report(title: str, workloads, ours: dict, theirs: dict | None, floor: dict) -> str:
    rows = [f"## {title}", "",
            "| workload | tracegraph (us) | tensorflow (us) | ratio tg/tf | numpy floor (us) |",
            "|---|---:|---:|---:|---:|"]
    for w in workloads:
        a = ours.get(w.name)
        b = theirs.get(w.name) if theirs else None
        ratio = f"{a / b:.3f}x" if isinstance(a, float) and isinstance(b, float) else "-"
        rows.append(f"| {w.name} | {_fmt(a)} | {_fmt(b)} | {ratio} | {_fmt(floor.get(w.name))} |")
    notes = [f"- {w.name}: {w.note}" for w in workloads if w.note]
    return "\n".join(rows + ([""] + notes if notes else []))


def main(title: str, workloads: list[Workload], argv=None) -> dict:
    parser = argparse.ArgumentParser(description=title)
    parser.add_argument("--module", default="tracegraph", choices=["tracegraph", "tensorflow"])
    parser.add_argument("--json", action="store_true", help="print results as one JSON line")
    parser.add_argument("--compare", help="a Python interpreter with TensorFlow installed")
    parser.add_argument("--quick", action="store_true", help="fewer repeats (smoke run)")
    parser.add_argument("--busy", type=int, metavar="N",
                        help="also measure with N busy processes beside the benchmark")
    parser.add_argument("--rounds", type=int, default=1, help="quiet/busy rounds (with --busy)")
    parser.add_argument("--only", help="run only the workloads whose name contains this text")
    args = parser.parse_args(argv)
    if args.only:
        workloads[:] = [w for w in workloads if args.only in w.name]
    if args.quick:
        for w in workloads:
            w.number, w.repeat = max(1, w.number // 10), 3
    if args.busy is not None and not args.json:
        return main_busy(title, workloads, args)
    ours = measure(workloads, args.module)
    if args.json:
        print(json.dumps(ours))
        return ours
    theirs = None
    python = _tf_python(args) if args.module == "tracegraph" else None
    if python:
        extra = _child_args(args)
        try:
            theirs = run_other(python, sys.argv[0], extra)
        except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
            print(f"(TensorFlow comparison skipped: {e})", file=sys.stderr)
    print(report(title, workloads, ours, theirs, floors(workloads)))
    print("\nOPENBLAS_CORETYPE =", os.environ.get("OPENBLAS_CORETYPE", "(unset)"))
    return {"tracegraph": ours, "tensorflow": theirs}


def _child_args(args) -> list[str]:
    return (["--quick"] if args.quick else []) + (["--only", args.only] if args.only else [])


def _median_of(rounds: list[dict], name: str):
    values = [r.get(name) for r in rounds if isinstance(r.get(name), float)]
    if values:
        return statistics.median(values)
    return next((r.get(name) for r in rounds if r.get(name) is not None), None)


def main_busy(title: str, workloads, args) -> dict:
    """Quiet and busy medians of every workload, ours and TensorFlow's under the same load."""
    from busy import Busy, load

    python = _tf_python(args)
    extra = _child_args(args)
    runs = {"tg quiet": [], "tf quiet": [], "tg busy": [], "tf busy": []}
    loads = []

    def tensorflow() -> dict | None:
        if not python:
            return None
        try:
            return run_other(python, sys.argv[0], extra)
        except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
            print(f"(TensorFlow comparison skipped: {e})", file=sys.stderr)
            return None

    for r in range(args.rounds):
        loads.append(f"round {r + 1} quiet, before: {load()}")
        runs["tg quiet"].append(measure(workloads, "tracegraph"))
        runs["tf quiet"].append(tensorflow() or {})
        with Busy(args.busy, seconds=3600):
            time.sleep(0.5)
            runs["tg busy"].append(measure(workloads, "tracegraph"))
            runs["tf busy"].append(tensorflow() or {})
            loads.append(f"round {r + 1} busy, at the end: {load()}")
    print(busy_report(title, workloads, runs, args.busy))
    print()
    print("\n".join(loads))
    print("OPENBLAS_CORETYPE =", os.environ.get("OPENBLAS_CORETYPE", "(unset)"))
    return runs


def busy_report(title: str, workloads, runs: dict, n: int) -> str:
    rounds = len(runs["tg quiet"])
    rows = [f"## {title}: quiet and with {n} busy process(es) beside it "
            f"({os.cpu_count()} cores; medians of {rounds} round(s), us per call)", "",
            "| workload | tracegraph quiet | busy | busy/quiet | tensorflow quiet | busy | "
            "busy/quiet | tg/tf busy |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for w in workloads:
        tq, tb, fq, fb = (_median_of(runs[k], w.name) for k in
                          ("tg quiet", "tg busy", "tf quiet", "tf busy"))

        def ratio(a, b):
            return f"{a / b:.2f}x" if isinstance(a, float) and isinstance(b, float) else "-"
        rows.append(f"| {w.name} | {_fmt(tq)} | {_fmt(tb)} | {ratio(tb, tq)} | {_fmt(fq)} | "
                    f"{_fmt(fb)} | {ratio(fb, fq)} | {ratio(tb, fb)} |")
    return "\n".join(rows)
