"""Objects to save: the seeds' functions, a Module-shaped model, AutoGraph control flow, every
dtype. Each entry builds a fresh object and the calls to make: [(attribute path, args)]."""

import numpy as np

import tracegraph as tf


class Holder:
    """A plain object holding functions and Variables (what tf.Module tracks)."""


def _fn(**fns):
    h = Holder()
    for k, v in fns.items():
        setattr(h, k, v)
    return h


def seed_regular_function():
    def a_regular_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x
    x1, y1 = np.array([[1.0, 2.0]], np.float32), np.array([[2.0], [3.0]], np.float32)
    return _fn(f=tf.function(a_regular_function)), [("f", [x1, y1, np.float32(4.0)])]


def seed_outer_function():
    def inner_function(x, y, b):
        return tf.matmul(x, y) + b

    @tf.function
    def outer_function(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return inner_function(x, y, b)
    return _fn(outer=outer_function), [("outer", [np.array([[1.0, 2.0]], np.float32)])]


def seed_get_mse():
    @tf.function
    def get_MSE(y_true, y_pred):  # noqa: N802 - the guide's name
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)
    a, b = np.array([1, 0, 4, 4, 7], np.int32), np.array([3, 6, 3, 0, 6], np.int32)
    return _fn(mse=get_MSE), [("mse", [a, b]), ("mse", [a.astype(np.float32),
                                                       b.astype(np.float32)])]


def seed_power():
    @tf.function
    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result
    x = np.random.default_rng(0).integers(-2, 3, (10, 10)).astype(np.int32)
    return _fn(power=power), [("power", [x, 5])]


def seed_non_strict():
    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # unused
        return x
    return _fn(f=unused_return_graph), [("f", [np.array([0.0, 1.0], np.float32)])]


class Dense:
    def __init__(self, in_features, out_features, seed):
        rng = np.random.default_rng(seed)
        self.w = tf.Variable(rng.normal(size=(in_features, out_features)).astype(np.float32),
                             name="w")
        self.b = tf.Variable(np.zeros(out_features, np.float32), name="b")

    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class SequentialModule:
    """The guides' `tf.Module` example, as a plain object (tf.Module has the same shape)."""

    def __init__(self):
        self.dense_1 = Dense(3, 3, 1)
        self.dense_2 = Dense(3, 2, 2)
        self.layers = [self.dense_1, self.dense_2]

    @tf.function
    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


def module_model():
    m = SequentialModule()
    x = np.array([[2.0, 2.0, 2.0]], np.float32)
    return m, [("__call__", [x]), ("__call__", [np.ones((4, 3), np.float32)])]


def autograph_control_flow():
    @tf.function
    def branches(x):
        if tf.reduce_sum(x) > 0:
            y = x * 2.0
        else:
            y = -x
        return y

    @tf.function
    def loop(n):
        total = tf.constant(0)
        i = tf.constant(0)
        while i < n:
            total += i * i
            i += 1
        return total

    @tf.function
    def nested(x, n):
        acc = tf.zeros_like(x)
        for i in tf.range(n):
            if i % 2 == 0:
                acc += x
            else:
                acc -= 0.5
            j = 0
            while j < i:  # a loop in a loop (a loop in a cond branch: see the report)
                acc += 0.25
                j += 1
            if tf.reduce_max(acc) > 10.0:
                break
        return acc

    @tf.function
    def fizzbuzz(n):
        out = tf.constant("")
        for i in tf.range(1, n + 1):
            if i % 15 == 0:
                out += "FizzBuzz "
            elif i % 3 == 0:
                out += "Fizz "
            elif i % 5 == 0:
                out += "Buzz "
            else:
                out += tf.strings.as_string(i) + " "
        return out
    x = np.array([1.0, -3.0, 2.5], np.float32)
    calls = [("branches", [x]), ("branches", [-x]), ("loop", [np.int32(7)]),
             ("nested", [x, np.int32(6)]), ("nested", [x * 4, np.int32(20)]),
             ("fizzbuzz", [np.int32(16)])]
    return _fn(branches=branches, loop=loop, nested=nested, fizzbuzz=fizzbuzz), calls


class Counter:
    def __init__(self):
        self.count = tf.Variable(0, name="count")
        self.log = tf.Variable(np.zeros(4, np.float64), name="log")

    @tf.function
    def step(self, x):
        self.count.assign_add(1)
        self.log.assign(self.log * 0.5 + tf.cast(x, tf.float64))
        return self.count.read_value(), self.log.read_value()


def stateful_counter():
    c = Counter()
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    return c, [("step", [x]), ("step", [x]), ("step", [x * 3])]


def calls_and_structures():
    @tf.function
    def inner(x):
        return x * x + 1.0

    big = np.linspace(0.0, 1.0, 5000).astype(np.float32)  # > 4 KB: stored beside the JSON

    @tf.function
    def outer(x, scale=2.0):
        return {"sq": inner(x) * scale, "parts": (x, tf.reduce_sum(x * big[:3])),
                "big": tf.reduce_sum(big)}
    x = np.array([1.0, 2.0, 3.0], np.float32)
    return _fn(inner=inner, outer=outer), [("outer", [x]), ("inner", [x])]


_DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
           "uint16", "uint32", "uint64", "bool", "complex64", "complex128"]


class AllDtypes:
    def __init__(self):
        rng = np.random.default_rng(3)
        self.vars = {}
        for name in _DTYPES:
            dt = np.dtype(name)
            if dt.kind == "f":
                v = rng.normal(size=(2, 3)).astype(dt)
            elif dt.kind == "c":
                v = (rng.normal(size=(2, 3)) + 1j * rng.normal(size=(2, 3))).astype(dt)
            elif dt.kind == "b":
                v = rng.integers(0, 2, (2, 3)).astype(bool)
            else:
                info = np.iinfo(dt)
                v = np.array([[info.min, info.max, 0], [1, 2, 3]], dt)
            self.vars[name] = tf.Variable(v, name=f"v_{name}")
        self.text = tf.Variable(np.array([b"", b"caf\xc3\xa9", b"a\x00b\x00"], dtype=object),
                                name="text")
        self.scalar = tf.Variable(2.5, name="scalar")

    @tf.function
    def read_all(self):
        return {k: v.read_value() for k, v in self.vars.items()}, self.text.read_value()


def all_dtypes():
    return AllDtypes(), [("read_all", [])]


CATALOGUE = {
    "seed_regular_function": seed_regular_function,
    "seed_outer_function": seed_outer_function,
    "seed_get_mse": seed_get_mse,
    "seed_power": seed_power,
    "seed_non_strict": seed_non_strict,
    "module_model": module_model,
    "autograph_control_flow": autograph_control_flow,
    "stateful_counter": stateful_counter,
    "calls_and_structures": calls_and_structures,
    "all_dtypes": all_dtypes,
}
