"""Issue 14 item 14 (trace parts): `ConcreteFunction.function_type`, `inference_fn`, printing of
concrete functions and `pretty_printed_concrete_signatures()` in TensorFlow 2.21's layout (the
expected texts are what TensorFlow 2.21 prints for the same code), and the
`tf.types.experimental.TraceType` protocol (`__tf_tracing_type__`) from the guide "Better
performance with tf.function"."""

import collections
import inspect
import re

import pytest

import tracegraph as tf

F32 = "TensorSpec(shape={}, dtype=tf.float32, name=None)"


@tf.function
def f(x, n=2, *, scale=1.0):
    return x * n * scale, {"s": tf.reduce_sum(x)}


def test_function_type_and_printing_as_tensorflow():
    cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32), 3)
    signature = (f"(x: {F32.format('(None, 3)')}, n: Literal[3], *, scale: Literal[1.0]) -> "
                 f"Tuple[{F32.format('(None, 3)')}, Dict[['s', {F32.format('()')}]]]")
    assert str(cf.function_type) == signature
    assert isinstance(cf.function_type, inspect.Signature)
    assert list(cf.function_type.parameters) == ["x", "n", "scale"]
    assert str(cf) == (
        "ConcreteFunction Input Parameters:\n"
        f"  x (POSITIONAL_OR_KEYWORD): {F32.format('(None, 3)')}\n"
        "  n (POSITIONAL_OR_KEYWORD): Literal[3]\n"
        "  scale (KEYWORD_ONLY): Literal[1.0]\n"
        "Output Type:\n"
        f"  Tuple[{F32.format('(None, 3)')}, Dict[['s', {F32.format('()')}]]]\n"
        "Captures:\n  None")
    assert re.fullmatch(rf"<ConcreteFunction {re.escape(signature)} at 0x[0-9A-F]+>", repr(cf))


def test_pretty_printed_concrete_signatures_verbose_and_not():
    g = tf.function(lambda x, n: x * n)
    g(tf.constant([1.0, 2.0]), 4)
    g(tf.constant(1.0), 5)
    verbose = g.pretty_printed_concrete_signatures()
    assert verbose.split("\n\n")[0] == (
        f"Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): {F32.format('(2,)')}\n"
        "  n (POSITIONAL_OR_KEYWORD): Literal[4]\nOutput Type:\n"
        f"  {F32.format('(2,)')}\nCaptures:\n  None")
    assert g.pretty_printed_concrete_signatures(verbose=False) == (
        f"(x: {F32.format('(2,)')}, n: Literal[4]) -> {F32.format('(2,)')}\n"
        f"(x: {F32.format('()')}, n: Literal[5]) -> {F32.format('()')}")


def test_structures_variables_captures_and_var_args_print_as_tensorflow():
    P = collections.namedtuple("P", ["a", "b"])
    cf = tf.function(lambda p, s, t, n, o: p.a).get_concrete_function(
        P(tf.TensorSpec([]), 2), "str", (), None, True)
    lines = str(cf).splitlines()
    assert lines[1] == ("  p (POSITIONAL_OR_KEYWORD): "
                        f"P[['a', {F32.format('()')}], ['b', Literal[2]]]")
    assert lines[2:6] == ["  s (POSITIONAL_OR_KEYWORD): Literal['str']",
                          "  t (POSITIONAL_OR_KEYWORD): Tuple[]",
                          "  n (POSITIONAL_OR_KEYWORD): Literal[None]",
                          "  o (POSITIONAL_OR_KEYWORD): Literal[True]"]
    cf = tf.function(lambda *args, **kw: args[0]).get_concrete_function(
        tf.TensorSpec([]), 2, k=tf.TensorSpec([]))
    assert str(cf).splitlines()[1:4] == [
        f"  args_0 (POSITIONAL_ONLY): {F32.format('()')}", "  args_1 (POSITIONAL_ONLY): Literal[2]",
        f"  k (KEYWORD_ONLY): {F32.format('()')}"]
    v, u = tf.Variable(2.0), tf.Variable(3.0)
    c = tf.constant([1.0, 2.0])
    cf = tf.function(lambda x, w: x * u + c + w).get_concrete_function(tf.TensorSpec([2]), v)
    text = str(cf).splitlines()
    assert text[2] == ("  w (POSITIONAL_OR_KEYWORD): VariableSpec(shape=(), dtype=tf.float32, "
                       "trainable=True, alias_id=0)")
    captures = text[text.index("Captures:") + 1:]
    assert [re.sub(r"^  \d+: ", "", line) for line in captures] == [
        "TensorSpec(shape=(), dtype=tf.resource, name=None)", F32.format("(2,)")]
    # the Variable read from the closure is the argument itself: read through the argument,
    # not captured (TF 2.21 lists only `c`, and a call with `u` reads `u` for both)
    cf = tf.function(lambda x, w: x * v + c + w).get_concrete_function(tf.TensorSpec([2]), v)
    text = str(cf).splitlines()
    assert [re.sub(r"^  \d+: ", "", line) for line in text[text.index("Captures:") + 1:]] == \
        [F32.format("(2,)")]
    assert cf(tf.constant([1.0, 1.0]), u).numpy().tolist() == [7.0, 8.0]
    none = tf.function(lambda a: None).get_concrete_function(tf.TensorSpec([]))
    assert "Output Type:\n  Literal[None]" in str(none)


def test_inference_fn_runs_the_flat_graph():
    cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32), 3)
    fn = cf.inference_fn
    assert type(fn).__name__ == "AtomicFunction"
    assert re.fullmatch(rb"__inference_f_\d+", fn.name)
    assert str(fn.function_type) == str(cf.function_type)
    # TF binds the concrete function's parameters (every one required) and returns the
    # structured output; call_flat takes and returns flat tensors
    out, sums = fn(tf.ones([2, 3]), 3, scale=1.0)
    assert out.numpy().tolist() == [[3.0] * 3] * 2 and sums["s"].numpy() == 6.0
    assert fn(x=tf.ones([1, 3]), n=3, scale=1.0)[1]["s"].numpy() == 3.0
    assert fn([[1.0, 2.0, 3.0]], 3, scale=1.0)[0].numpy().tolist() == [[3.0, 6.0, 9.0]]
    flat = fn.call_flat(tf.ones([1, 3]))
    assert type(flat) is list and [t.numpy().tolist() for t in flat] == [[[3.0] * 3], 3.0]
    assert fn.call_preflattened([tf.ones([1, 3])])[1]["s"].numpy() == 3.0
    with pytest.raises(TypeError, match="missing a required argument: 'scale'"):
        fn(tf.ones([2, 3]), 3)
    with pytest.raises(TypeError, match=re.escape(
            "Can not cast TensorSpec(shape=(2, 3), dtype=tf.int32, name=None) to "
            "TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)")):
        fn(tf.ones([2, 3], tf.int32), 3, scale=1.0)
    with pytest.raises(ValueError, match="Signature specifies 1 arguments, got: 2."):
        fn.call_flat(tf.ones([1, 3]), tf.ones([1, 3]))

    single = tf.function(lambda x: x * 2.0).get_concrete_function(tf.TensorSpec([None]))
    assert single.inference_fn(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    with pytest.raises(TypeError, match="too many positional arguments"):
        single.inference_fn(tf.constant([1.0]), 5)
    nothing = tf.function(lambda x: None).get_concrete_function(tf.TensorSpec([None]))
    assert nothing.inference_fn(tf.constant([1.0])) is None


def test_inference_fn_of_a_function_with_captures():
    v = tf.Variable(2.0)
    cf = tf.function(lambda x: x * v).get_concrete_function(tf.TensorSpec([]))
    fn = cf.inference_fn
    with pytest.raises(ValueError, match="The FunctionType defines captured inputs. Use "
                                         "call_with_captures instead."):
        fn(tf.constant(1.0))
    assert fn.call_with_captures((tf.constant(1.0),), {}, cf.captured_inputs).numpy() == 2.0
    assert [t.numpy() for t in fn.call_flat(tf.constant(1.0), *cf.captured_inputs)] == [2.0]
    assert fn.call_preflattened([tf.constant(3.0), *cf.captured_inputs]).numpy() == 6.0
    with pytest.raises(ValueError, match="Signature specifies 2 arguments, got: 1."):
        fn.call_flat(tf.constant(1.0))


# --- tf.types.experimental.TraceType (the guide's Fruit example) -----------------------------

class FruitTraceType(tf.types.experimental.TraceType):
    def __init__(self, fruit):
        self.fruit_type = type(fruit)
        self.fruit_value = fruit

    def is_subtype_of(self, other):
        return type(other) is FruitTraceType and self.fruit_type is other.fruit_type

    def most_specific_common_supertype(self, others):
        return self if all(self == other for other in others) else None

    def placeholder_value(self, placeholder_context=None):
        return self.fruit_value

    def __eq__(self, other):
        return type(other) is FruitTraceType and self.fruit_type == other.fruit_type

    def __hash__(self):
        return hash(self.fruit_type)

    def __repr__(self):
        return f"FruitTraceType({self.fruit_type.__name__})"


class FruitWithTraceType:
    def __tf_tracing_type__(self, context):
        return FruitTraceType(self)


class AppleWithTraceType(FruitWithTraceType):
    flavor = tf.constant([1, 2])


class MangoWithTraceType(FruitWithTraceType):
    flavor = tf.constant([3, 4])


class Apple:
    flavor = tf.constant([1, 2])


def test_user_defined_trace_types_key_traces():
    @tf.function
    def get_mixed_flavor(fruit_a, fruit_b):
        return fruit_a.flavor + fruit_b.flavor

    assert get_mixed_flavor(Apple(), Apple()).numpy().tolist() == [2, 4]
    get_mixed_flavor(Apple(), Apple())   # new objects, keyed by identity: traces again
    assert get_mixed_flavor.experimental_get_tracing_count() == 2
    assert get_mixed_flavor(AppleWithTraceType(), MangoWithTraceType()).numpy().tolist() == [4, 6]
    assert get_mixed_flavor(AppleWithTraceType(), MangoWithTraceType()).numpy().tolist() == [4, 6]
    assert get_mixed_flavor.experimental_get_tracing_count() == 3   # reused
    assert get_mixed_flavor(MangoWithTraceType(), MangoWithTraceType()).numpy().tolist() == [6, 8]
    assert get_mixed_flavor.experimental_get_tracing_count() == 4
    cf = get_mixed_flavor.get_concrete_function(AppleWithTraceType(), MangoWithTraceType())
    assert str(cf.function_type) == ("(fruit_a: FruitTraceType(AppleWithTraceType), fruit_b: "
                                     "FruitTraceType(MangoWithTraceType)) -> "
                                     "TensorSpec(shape=(2,), dtype=tf.int32, name=None)")


def test_trace_type_must_be_hashable():
    class Bad(tf.types.experimental.TraceType):
        is_subtype_of = most_specific_common_supertype = None
        __eq__ = object.__eq__
        __hash__ = None

    class Arg:
        def __tf_tracing_type__(self, context):
            return Bad()

    with pytest.raises(TypeError, match="unhashable Bad"):
        tf.function(lambda a: 1)(Arg())
