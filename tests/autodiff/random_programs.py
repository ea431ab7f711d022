"""Random differentiable float64 programs of one input `x` and one Variable `v` (both of shape
[3]) for the finite-difference property tests: smooth elementwise steps, Variable reads,
`tf.where` branches whose masked side is NaN or infinite, terms scaled by 0 whose derivative
is infinite, `tf.cond` and `tf.while_loop` reading the Variable, and nested `tf.function`s
(closing over the Variable or taking it as an argument). A program is plain data (tuples),
so hypothesis shrinks it and a failure prints it; `build` turns it into a Python function.

Values:   a step's operand is an earlier value's index or "v" (the Variable, read there).
Steps:    ("unary", name, a)            ("binary", name, a, b)
          ("masked", a, mask, bad)      tf.where(mask, a, bad(a)): bad(a) is NaN/inf
          ("zero_scaled", a, b, kind)   a + 0 * sqrt(b - b) or a + 0 * reduce_std(b - b)
          ("cond", a, threshold, then_steps, else_steps)   on sum(a) > threshold
          ("while", a, n, body_steps)   n times: a = body(a)
          ("nested", a, body_steps, pass_variable)          a tf.function of a
A sub-program's steps read value 0 (its argument) and "v"; its result is its last value."""

from __future__ import annotations

from hypothesis import strategies as st

UNARY = ("sin", "cos", "tanh", "sigmoid", "softplus", "square_tanh", "exp_tanh", "scale")
BINARY = ("add", "sub", "mul")
MASKS = ((True, False, True), (False, True, True), (True, True, False))
BAD = ("sqrt_negative", "rsqrt_zero", "reciprocal_zero", "sqrt_zero")


def _unary(tf, name, a):
    if name == "square_tanh":
        return tf.square(tf.tanh(a))
    if name == "exp_tanh":
        return tf.exp(tf.tanh(a))
    if name == "scale":
        return a * 0.7
    if name == "softplus":
        return tf.math.softplus(a)
    return getattr(tf.math, name)(a)


def _bad(tf, kind, a, mask, singular):
    """f(d): d is a^2 + 1 where the mask is False (a smooth value tf.where keeps) and 0 or
    negative where it is True (tf.where drops it): there f(d) and f'(d) are NaN or inf. Not
    `singular`: d is a^2 + 1 everywhere (TensorFlow's second derivatives through a masked
    singular point are NaN: test_singular_gradients.py checks those against TensorFlow)."""
    hide = tf.constant([1.0 if m and singular else 0.0 for m in mask], a.dtype)
    kept = (tf.square(a) + 1.0) * (1.0 - hide)
    if kind == "sqrt_negative":
        return tf.sqrt(kept - hide * (tf.square(a) + 1.0))
    if kind == "rsqrt_zero":
        return tf.math.rsqrt(kept)
    if kind == "reciprocal_zero":
        return tf.math.reciprocal(kept)
    return tf.sqrt(kept)                # 0 where hidden: finite value, infinite derivative


def run_steps(tf, steps, values, v, margins, singular=True):
    values = list(values)

    def get(i):
        return v if i == "v" else values[i]
    for step in steps:
        kind = step[0]
        if kind == "unary":
            out = _unary(tf, step[1], get(step[2]))
        elif kind == "binary":
            a, b = get(step[2]), get(step[3])
            out = {"add": tf.add, "sub": tf.subtract, "mul": tf.multiply}[step[1]](a, b)
        elif kind == "masked":
            a = tf.convert_to_tensor(get(step[1]))
            out = tf.where(tf.constant(step[2]), a, _bad(tf, step[3], a, step[2], singular))
        elif kind == "zero_scaled":
            a, b = get(step[1]), get(step[2])
            b = tf.convert_to_tensor(b)
            if singular:                        # equal values: the derivatives are inf
                term = tf.sqrt(b - b) if step[3] == "sqrt" else tf.math.reduce_std(b - b)
            else:
                term = tf.sqrt(tf.square(b) + 1.0) if step[3] == "sqrt" else \
                    tf.math.reduce_std(b + tf.constant([0.0, 1.1, 3.7], b.dtype))
            out = a + 0.0 * term
        elif kind == "cond":
            a = tf.convert_to_tensor(get(step[1]))
            s = tf.reduce_sum(a)
            margins.append(s - step[2])
            def branch(sub, a=a):
                return lambda: run_steps(tf, sub, [a], v, margins, singular)[-1]
            out = tf.cond(s > step[2], branch(step[3]), branch(step[4]))
        elif kind == "while":
            a = tf.convert_to_tensor(get(step[1]))
            body_steps = step[3]
            def body(i, s, body_steps=body_steps):
                return i + 1, run_steps(tf, body_steps, [s], v, margins, singular)[-1]
            _, out = tf.while_loop(lambda i, s, n=step[2]: i < n, body, (tf.constant(0), a))
        elif kind == "nested":
            out = _nested(tf, step, get(step[1]), v, margins, singular)
        else:
            raise ValueError(step)
        values.append(out)
    return values


def _nested(tf, step, a, v, margins, singular):
    body_steps, pass_variable = step[2], step[3]
    if pass_variable:
        @tf.function
        def inner(a, var):
            return run_steps(tf, body_steps, [a], var, margins, singular)[-1]
        return inner(a, v)

    @tf.function
    def inner_closed(a):
        return run_steps(tf, body_steps, [a], v, margins, singular)[-1]
    return inner_closed(a)


def build(tf, program, v, margins, singular=True):
    """loss(x): the program's scalar loss, sum(sin(value)) over every value it computes."""
    def loss(x):
        values = run_steps(tf, program, [x], v, margins, singular)
        return tf.add_n([tf.reduce_sum(tf.sin(val)) for val in values[1:]] +
                        [tf.reduce_sum(x * 0.0)])
    return loss


# ---- hypothesis strategies --------------------------------------------------------------

def _operand(draw, n):
    return draw(st.one_of(st.integers(0, n - 1), st.just("v")))


@st.composite
def _simple_steps(draw, min_size=1, max_size=3):
    """Steps of a sub-program: elementwise, Variable reads, masked and zero-scaled terms."""
    steps = []
    for _ in range(draw(st.integers(min_size, max_size))):
        n = 1 + len(steps)
        steps.append(_simple_step(draw, n))
    return tuple(steps)


def _simple_step(draw, n):
    kind = draw(st.sampled_from(("unary", "binary", "binary", "masked", "zero_scaled")))
    if kind == "unary":
        return ("unary", draw(st.sampled_from(UNARY)), _operand(draw, n))
    if kind == "binary":
        return ("binary", draw(st.sampled_from(BINARY)), _operand(draw, n), _operand(draw, n))
    if kind == "masked":
        return ("masked", draw(st.integers(0, n - 1)), draw(st.sampled_from(MASKS)),
                draw(st.sampled_from(BAD)))
    return ("zero_scaled", draw(st.integers(0, n - 1)), _operand(draw, n),
            draw(st.sampled_from(("sqrt", "reduce_std"))))


@st.composite
def programs(draw, max_steps=5, control_flow=True):
    steps = []
    for _ in range(draw(st.integers(1, max_steps))):
        n = 1 + len(steps)
        kind = draw(st.sampled_from(("simple", "simple", "cond", "while", "nested"))
                    if control_flow else st.just("simple"))
        a = draw(st.integers(0, n - 1))
        if kind == "simple":
            steps.append(_simple_step(draw, n))
        elif kind == "cond":
            threshold = draw(st.floats(-2.0, 2.0, allow_nan=False))
            steps.append(("cond", a, threshold, draw(_simple_steps()), draw(_simple_steps())))
        elif kind == "while":
            steps.append(("while", a, draw(st.integers(1, 3)), draw(_simple_steps(1, 2))))
        else:
            steps.append(("nested", a, draw(_simple_steps()), draw(st.booleans())))
    return tuple(steps)


def inputs():
    """x and v's starting values: moderate, so sin/tanh chains stay well conditioned."""
    vec = st.lists(st.floats(-1.5, 1.5, allow_nan=False), min_size=3, max_size=3)
    return st.tuples(vec, vec)
