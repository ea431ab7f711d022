"""Random AutoGraph programs: loops with `break`/`continue`/`return` at any position of their
bodies, written as data and rendered as Python source (AutoGraph converts source, so each
program is written to a file and imported).

A program is a tuple of statements, the body of
`def f(x, y, n, xs): ...; return x, y, ta.stack()` where
`x`, `y` and `n` are int32 scalar tensors and `xs` an int32 vector. Statements:

- `("set", target, expr)`: `target = expr`;
- `("if", test, body, orelse)` with a tensor or Python test;
- `("break",)`, `("continue",)`, `("return", expr)` (returns `(expr, y, ta.stack())`);
- `("push",)`: `ta = ta.write(ta.size(), x)`, on the `tf.TensorArray` `ta` the function
  starts with (its flow threads through every loop and `if`);
- `("loop", kind, var, count, body, orelse)`, one of `LOOP_KINDS`.

Programs are plain tuples, so Hypothesis shrinks them and prints a failing one as the value
that rebuilds it; `source(program)` shows the Python.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys
import tempfile
from contextlib import contextmanager

LOOP_KINDS = {
    # kind: (header written before the loop or None, the loop line, whether `var` is a tensor)
    "range": (None, "for {var} in tf.range(n):", True),            # staged While over a range
    "tensor": (None, "for {var} in xs:", True),                     # staged While over a vector
    "while": ("{var} = 0", "while {var} < n:", True),               # staged While, tensor test
    "pyrange": (None, "for {var} in range({count}):", False),       # unrolled
    "pywhile": ("{var} = 0", "while {var} < {count}:", False),      # unrolled
}
PYTHON_LOOPS = {"pyrange", "pywhile"}


def _render(stmts, depth: int, out: list) -> None:
    pad = "    " * depth
    if not stmts:
        out.append(pad + "pass")
    for s in stmts:
        kind = s[0]
        if kind == "set":
            out.append(f"{pad}{s[1]} = {s[2]}")
        elif kind == "if":
            out.append(f"{pad}if {s[1]}:")
            _render(s[2], depth + 1, out)
            if s[3]:
                out.append(f"{pad}else:")
                _render(s[3], depth + 1, out)
        elif kind in ("break", "continue"):
            out.append(pad + kind)
        elif kind == "return":
            out.append(f"{pad}return {s[1]}, y, ta.stack()")
        elif kind == "push":
            out.append(f"{pad}ta = ta.write(ta.size(), x)")
        elif kind == "loop":
            _, loop_kind, var, count, body, orelse = s
            header, line, _ = LOOP_KINDS[loop_kind]
            if header:
                out.append(pad + header.format(var=var))
            out.append(pad + line.format(var=var, count=count))
            if loop_kind in ("while", "pywhile"):  # the counter first: `continue` can't skip it
                out.append(f"{pad}    {var} = {var} + 1")
            _render(body, depth + 1, out)
            if orelse:
                out.append(f"{pad}else:")
                _render(orelse, depth + 1, out)
        else:
            raise ValueError(s)


def source(program) -> str:
    lines = ["import tracegraph as tf", "", "", "def f(x, y, n, xs):",
             "    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)"]
    _render(program, 1, lines)
    lines.append("    return x, y, ta.stack()")
    return "\n".join(lines) + "\n"


_counter = itertools.count()


@contextmanager
def loaded(program):
    """The program's `f`, imported from a temporary file (AutoGraph reads its source)."""
    with tempfile.TemporaryDirectory() as folder:
        name = f"ag_program_{os.getpid()}_{next(_counter)}"
        path = os.path.join(folder, name + ".py")
        with open(path, "w") as fh:
            fh.write(source(program))
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        try:
            yield module.f
        finally:
            sys.modules.pop(name, None)


# ---- which programs TensorFlow refuses to stage --------------------------------------------------

def may_raise_not_implemented(program) -> bool:
    """Whether TensorFlow's rules let tracing raise NotImplementedError: a Python loop with a
    `break` whose flag may become a tensor (the loop also holds a jump under a tensor test:
    the rest of its body is then guarded by a staged `if`), or a Python loop holding a
    `return` in a function where some `return` depends on a tensor (the return flag becomes
    a tensor)."""
    python_loops = []          # per Python loop: [has a break, has a tensor-dependent jump]
    returns_in_python_loop, tensor_return = [], []

    def walk(stmts, loops, tensor_test, tensor_anywhere):
        for s in stmts:
            if s[0] == "if":
                t = is_tensor_test(s[1], _tensor_loop_vars(loops))
                for block in (s[2], s[3]):
                    walk(block, loops, tensor_test or t, tensor_anywhere or t)
            elif s[0] in ("break", "continue") and loops and loops[-1][2] is not None:
                info = loops[-1][2]
                info[0] = info[0] or s[0] == "break"
                info[1] = info[1] or tensor_test
            elif s[0] == "return":
                tensor_return.append(tensor_anywhere)
                returns_in_python_loop.append(any(i is not None for _, _, i in loops))
                for _, _, info in loops:
                    if info is not None:
                        info[0] = True  # the return flag stops the loop like a break
                        info[1] = info[1] or tensor_anywhere
            elif s[0] == "loop":
                _, kind, var, _, body, orelse = s
                info = None
                if kind in PYTHON_LOOPS:
                    info = [False, False]
                    python_loops.append(info)
                walk(body, loops + [(var, kind, info)], False,
                     tensor_anywhere or kind not in PYTHON_LOOPS)
                walk(orelse, loops, tensor_test, tensor_anywhere)

    walk(program, [], False, False)
    return any(has_break and tensor for has_break, tensor in python_loops) or (
        any(tensor_return) and any(returns_in_python_loop))


def _tensor_loop_vars(loops) -> frozenset:
    return frozenset(var for var, kind, _ in loops if LOOP_KINDS[kind][2])


def is_tensor_test(test: str, tensor_names) -> bool:
    """Tests read `x`, `y` (always tensors) or one loop variable."""
    words = set(test.replace("(", " ").replace(")", " ").split())
    return bool(words & ({"x", "y"} | set(tensor_names)))


# ---- drawing ---------------------------------------------------------------------------------

SETS = ["x + 1", "x - 2", "x + {v}", "y + x % 3", "x * 2 % 101", "y - 1", "y + {v} * 2"]
TENSOR_TESTS = ["x > 3", "x % 2 == 0", "y < x", "x + y >= 4", "{t} >= 2", "{t} % 2 == 1"]
PYTHON_TESTS = ["{p} == 1", "{p} >= 2", "{p} % 2 == 0"]
