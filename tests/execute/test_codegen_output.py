"""What the code generator writes (issue 8 point 5): scalar constants in place, no default
attrs, the op named once per comment, no dead copies after loops; and the state it keeps:
compiled sub-graphs in compile.py's weak mapping, linecache entries that go with the function,
no cross-check in the production path, one wiring place for the trace layer's slots."""

import gc
import linecache
import pathlib
import re

import numpy as np
import pytest

import tracegraph as tf
from tracegraph.execute import compile as compile_module
from tracegraph.execute.codegen import GeneratedFunction
from tracegraph.execute.compile import compile_graph, compile_subgraph
from tracegraph.execute.crosscheck import crosscheck, set_crosscheck

ROOT = pathlib.Path(tf.__file__).resolve().parent


def _code(fn, *args):
    """The code generator's source for fn's traced graph (compiled with "codegen" directly:
    the suite may run every Function on the jit executor, which fuses these ops)."""
    g = tf.function(fn).get_concrete_function(*args).graph
    return compile_graph(g, g.inputs, g.outputs, executor="codegen").source


def _lines_with(source, text):
    return [line for line in source.splitlines() if text in line]


@pytest.mark.parametrize("dtype, one", [(tf.float32, "1.0"), (tf.float16, "1.0"),
                                        (tf.int8, "1"), (tf.uint8, "1"), (tf.int64, "1")])
def test_scalar_constants_are_written_in_place_and_keep_the_dtype(no_optimizer, dtype, one):
    f = tf.function(lambda x: x * 3 + 1)
    x = tf.constant([1, 2], dtype)
    source = _code(lambda x: x * 3 + 1, x)
    assert _lines_with(source, f" + {one} ") and _lines_with(source, " * 3")
    assert not re.search(r"\bc(_\d+)?\b", source)  # no global was bound for them
    out = f(x)  # the suite's cross-check compares with the interpreter, dtype included
    assert out.dtype == dtype and out.numpy().tolist() == [4, 7]


def test_negative_and_scalar_only_constants(no_optimizer):
    source = _code(lambda x: (x - (-2.0)) * tf.constant(2.0) / tf.constant(4.0),
                   tf.constant([1.0]))
    assert _lines_with(source, "- (-2.0)")
    f = tf.function(lambda: tf.constant(2.0) + tf.constant(3.0))  # no array operand: no literal
    assert f().numpy() == 5.0 and f().dtype == tf.float32


def test_non_finite_and_array_constants_stay_globals(no_optimizer):
    source = _code(lambda x: x + np.float32(np.inf) + tf.constant([1.0, 2.0]), tf.constant(1.0))
    assert "inf" not in source.split("try:")[1].split("#")[0]
    assert len(_lines_with(source, "+ c")) == 2


def test_default_attrs_are_not_printed(no_optimizer):
    source = _code(lambda x: x[0] + tf.reduce_sum(x), tf.constant([1.0, 2.0]))
    (line,) = _lines_with(source, "k_strided_slice(")
    assert "shrink_axis_mask=1" in line and "begin_mask" not in line
    (line,) = _lines_with(source, "k_reduce_sum(")
    assert "keep_dims" not in line


def test_comments_name_the_op_once(no_optimizer):
    source = _code(lambda x: tf.sin(x) * 2.0 + tf.range(3.0) / x, tf.constant(1.0))
    (mul,) = _lines_with(source, "* 2.0")
    assert re.search(r"# mul  test_codegen_output\.py:\d+$", mul)   # the name says Mul
    (rng,) = _lines_with(source, "k_range(")
    assert "# range  test_codegen_output.py:" in rng
    (div,) = _lines_with(source, " / ")
    assert "# truediv (RealDiv)  test_codegen_output.py:" in div    # it does not say RealDiv


def test_no_dead_copies_after_a_loop(no_optimizer):
    def f(x, n):
        i = tf.constant(0)
        while i < n:
            x = x * 2.0
            i += 1
        return x

    source = _code(f, tf.constant(1.0), tf.constant(3))
    after = source.split("while ")[-1].splitlines()[1:]
    outer = [line for line in after if re.match(r"^ {8}\S", line)]
    assert not [line for line in outer if re.fullmatch(r"\s*v\d+ = v\d+", line)], source
    assert tf.function(f)(tf.constant(1.0), tf.constant(3)).numpy() == 8.0


def test_compiled_subgraphs_live_in_a_weak_mapping_of_compile_py():
    cf = tf.function(lambda x, p: tf.cond(p, lambda: x + 1.0, lambda: x - 1.0)) \
        .get_concrete_function(tf.constant(1.0), tf.constant(True))
    (cond,) = [op for op in cf.graph.operations if op.type in ("If", "StatelessIf")]
    branch = cond.attrs["then_branch"]
    fn = compile_graph(cf.graph, cf.graph.inputs, cf.graph.outputs, executor="interpreter")
    assert "_compiled" not in vars(branch)
    key = (id(branch), "interpreter", None)   # None: compiled outside a profile
    assert compile_module._SUBGRAPHS.get(key) is compile_subgraph(branch, "interpreter")
    del fn
    gc.collect()
    assert key not in compile_module._SUBGRAPHS


def test_generated_source_leaves_linecache_with_its_function():
    g = tf.function(lambda x: x * 2.0).get_concrete_function(tf.constant(1.0)).graph
    fn = compile_graph(g, g.inputs, g.outputs, executor="codegen")
    fn = getattr(fn, "fn", fn)   # the suite's cross-check wraps it
    filename = fn.filename
    assert filename in linecache.cache
    del fn
    gc.collect()
    assert filename not in linecache.cache


def test_the_cross_check_is_not_in_the_production_path():
    was_on = crosscheck()
    set_crosscheck(False)
    try:
        g = tf.function(lambda x: x + 1.0).get_concrete_function(tf.constant(1.0)).graph
        fn = compile_graph(g, g.inputs, g.outputs)
        assert type(fn) is GeneratedFunction
    finally:
        set_crosscheck(was_on)
    source = (ROOT / "execute" / "compile.py").read_text()
    assert "crosscheck" not in source.replace("execute/crosscheck.py", "")


def test_trace_hooks_are_wired_in_one_place():
    sites = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")
             if "wiring.install(" in p.read_text()]
    assert sites == ["__init__.py"]
    from tracegraph import wiring
    from tracegraph.autograph.api import convert_for_tracing
    from tracegraph.execute.runner import prepare
    assert wiring.prepare_function is prepare and \
        wiring.convert_for_tracing is convert_for_tracing
