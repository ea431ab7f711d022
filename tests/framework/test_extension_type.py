"""`tf.experimental.ExtensionType`: fields, specs, and values crossing graph boundaries, against
TensorFlow 2.21's behaviour (messages and values as it printed them)."""

import re
import typing

import numpy as np
import pytest

import tracegraph as tf


class Fields(tf.experimental.ExtensionType):
    i: int
    f: float
    s: str
    shape: tf.TensorShape
    dtype: tf.DType
    u: int | tf.Tensor
    t: tuple[int, ...]
    m: typing.Mapping[str, tf.Tensor]
    o: tf.Tensor | None = None


class MaskedTensor(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor

    def with_values(self, new_values):
        return MaskedTensor(new_values, self.mask)


def _fields(**changes):
    kw = dict(i=1, f=2.0, s="a", shape=[2, None], dtype="float32", u=3, t=[1, 2], m={"k": 1.5})
    kw.update(changes)
    return Fields(**kw)


def test_fields_convert_and_print_as_tensorflow():
    x = _fields()
    assert repr(x) == (
        "Fields(i=1, f=2.0, s='a', shape=TensorShape([2, None]), dtype=tf.float32, u=3, "
        "t=(1, 2), m=ImmutableDict({'k': <tf.Tensor: shape=(), dtype=float32, numpy=1.5>}), "
        "o=None)")
    assert repr(x._type_spec) == (
        "Fields.Spec(i=1, f=2.0, s='a', shape=TensorShape([2, None]), dtype=tf.float32, u=3, "
        "t=(1, 2), m={'k': TensorSpec(shape=(), dtype=tf.float32, name=None)}, o=None)")


@pytest.mark.parametrize("change,message", [
    ({"i": "x"}, "i: expected 'int', got 'str'"),
    ({"f": "x"}, "f: expected 'float', got 'str'"),
    ({"f": 2}, "f: expected 'float', got 'int'"),
    ({"s": 1}, "s: expected 'str', got 'int'"),
    ({"t": [1, "a"]}, r"t\[1\]: expected 'int', got 'str'"),
    ({"m": [1]}, "m: expected mapping, got 'list'"),
])
def test_field_type_errors_name_the_field(change, message):
    with pytest.raises(TypeError, match=message):
        _fields(**change)


def test_immutable_values_and_specs():
    mt = MaskedTensor([1, 2], [True, False])
    with pytest.raises(AttributeError, match="Cannot mutate attribute `mask` outside"):
        mt.mask = [True, True]
    with pytest.raises(TypeError):
        mt.m = 1 if False else mt.values.__setitem__(0, 1)
    spec = mt._type_spec
    with pytest.raises(AttributeError, match="ExtensionTypeSpec"):
        spec.values = 1
    with pytest.raises(TypeError):
        _fields().m["k"] = 2.0


def test_equality_is_a_tensor_and_false_across_types_or_shapes():
    a = MaskedTensor([1, 2], [True, False])
    assert bool(a == a) and not bool(a != a)
    assert not bool(a == MaskedTensor([1, 3], [True, False]))
    assert (a == MaskedTensor([1, 2, 3], [True, False, True])) is False
    assert (a == a.values) is False


def test_spec_subtyping_and_supertype():
    s = MaskedTensor.Spec(tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.bool))
    g = MaskedTensor.Spec(tf.TensorSpec(None, tf.float32), tf.TensorSpec(None, tf.bool))
    assert s.is_subtype_of(g) and not g.is_subtype_of(s) and s != g
    assert s.is_compatible_with(g)
    three = MaskedTensor.Spec(tf.TensorSpec([3], tf.float32), tf.TensorSpec([3], tf.bool))
    assert repr(s.most_specific_common_supertype([three])) == (
        "MaskedTensor.Spec(values=TensorSpec(shape=(None,), dtype=tf.float32, name=None), "
        "mask=TensorSpec(shape=(None,), dtype=tf.bool, name=None))")
    assert tf.type_spec_from_value(MaskedTensor([1.0, 2.0], [True, False])) == s
    assert hash(s) == hash(MaskedTensor.Spec(tf.TensorSpec([2]), tf.TensorSpec([2], tf.bool)))
    assert s.value_type is MaskedTensor


def test_tf_function_keys_by_spec_and_returns_extension_types():
    traces = []

    @tf.function
    def f(v):
        traces.append(v.i)
        return v.m["k"] * 2, v

    out, back = f(_fields())
    assert float(out) == 3.0 and type(back) is Fields and back.s == "a"
    assert float(back.m["k"]) == 1.5
    f(_fields(m={"k": 2.5}))     # same spec: no retrace
    f(_fields(i=2))              # a Python field changed: retrace
    assert traces == [1, 2]


def test_input_signature_and_concrete_function():
    spec = MaskedTensor.Spec(tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.bool))

    @tf.function(input_signature=[spec])
    def double(mt):
        return mt.with_values(mt.values * 2)

    out = double(MaskedTensor([1.0, 2.0, 3.0], [True, False, True]))
    np.testing.assert_allclose(out.values, [2.0, 4.0, 6.0])
    cf = double.get_concrete_function()
    out = cf(MaskedTensor([5.0], [False]))
    np.testing.assert_allclose(out.values, [10.0])
    with pytest.raises(TypeError):
        double(MaskedTensor([1, 2], [True, False]))   # int32 values: not the signature's


def test_nested_extension_types_and_tuples_in_tf_function():
    class Node(tf.experimental.ExtensionType):
        value: tf.Tensor
        children: tuple["Node", ...] = ()

    @tf.function
    def total(node):
        return node.value + sum(c.value for c in node.children)

    tree = Node(3, [Node(5), Node(2)])
    assert int(total(tree)) == 10
    assert len(tf.type_spec_from_value(tree).flatten()) == 3


def test_cond_and_while_loop_inside_tf_function():
    @tf.function
    def f(flag, mt):
        picked = tf.cond(flag, lambda: mt, lambda: mt.with_values(-mt.values))
        _, out = tf.while_loop(lambda i, _: i < 3,
                               lambda i, m: (i + 1, m.with_values(m.values + 1.0)),
                               [0, picked])
        return out

    mt = MaskedTensor([1.0, 2.0], [True, False])
    np.testing.assert_allclose(f(tf.constant(True), mt).values, [4.0, 5.0])
    np.testing.assert_allclose(f(tf.constant(False), mt).values, [2.0, 1.0])


def test_gradients_flow_through_extension_type_fields():
    @tf.function
    def loss(mt):
        return tf.reduce_sum(tf.where(mt.mask, mt.values * mt.values, 0.0))

    values = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        y = loss(MaskedTensor(values, [True, False, True]))
    np.testing.assert_allclose(tape.gradient(y, values), [2.0, 0.0, 6.0])


def test_custom_constructor_must_set_every_field():
    class Toy(tf.experimental.ExtensionType):
        name: str
        price: tf.Tensor

        def __init__(self, name):
            self.name = name

    with pytest.raises(ValueError, match="price"):
        Toy("ball")


def test_batchable_spec_class():
    class Network(tf.experimental.BatchableExtensionType):
        work: tf.Tensor

    assert issubclass(Network.Spec, tf.experimental.BatchableExtensionTypeSpec)
    assert isinstance(Network([1.0]), tf.experimental.BatchableExtensionType)


class Batch(tf.experimental.BatchableExtensionType):
    shape: tf.TensorShape
    work: tf.Tensor

    def __init__(self, work):
        self.work = tf.convert_to_tensor(work)
        self.shape = self.work.shape[:-1]


def test_datasets_slice_batch_unbatch_and_map_extension_types():
    ds = tf.data.Dataset.from_tensor_slices(Batch([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert repr(ds.element_spec) == (
        "Batch.Spec(shape=TensorShape([]), work=TensorSpec(shape=(2,), dtype=tf.float32, "
        "name=None))")
    doubled = ds.map(lambda b: Batch(b.work * 2))
    rows = [b.work.numpy().tolist() for b in doubled]
    assert rows == [[2.0, 4.0], [6.0, 8.0], [10.0, 12.0]]
    batched = ds.batch(2)
    assert repr(batched.element_spec.shape) == "TensorShape([None])"
    first = next(iter(batched))
    # the batch value's static shape is its spec's, as TensorFlow's: (None,)
    assert type(first) is Batch and repr(first.shape) == "TensorShape([None])"
    assert [b.shape for b in batched.unbatch()] == [tf.TensorShape([])] * 3


@pytest.mark.parametrize("annotation,text", [
    (list, "'list'"), (typing.List[int], "typing.List[int]"), (object, "'object'"),  # noqa: UP006
    (typing.Any, "'Any'"),
])
def test_unsupported_annotations_fail_at_class_creation(annotation, text):
    with pytest.raises(TypeError, match=rf"In field 'x': Unsupported type annotation "
                                        rf"{re.escape(text)}"):
        type("X", (tf.experimental.ExtensionType,), {"__annotations__": {"x": annotation}})


def test_composite_fields_are_supported():
    class Holder(tf.experimental.ExtensionType):
        rt: tf.RaggedTensor
        st: tf.SparseTensor

    h = Holder(tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 1, 3]),
               tf.SparseTensor([[0, 0]], [1.0], [2, 2]))
    assert h.rt.shape.as_list() == [2, None]


def test_reduce_retracing_relaxes_extension_type_specs():
    traces = []

    @tf.function(reduce_retracing=True)
    def f(mt):
        traces.append(mt.values.shape.as_list())
        return mt.with_values(mt.values * 2)

    for n in range(2, 6):
        f(MaskedTensor(tf.ones([n]), tf.ones([n], tf.bool)))
    out = f(MaskedTensor(tf.ones([7]), tf.ones([7], tf.bool)))
    assert traces == [[2], [None]] and out.values.shape == (7,)
