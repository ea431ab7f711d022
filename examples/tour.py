"""A tour of tracegraph on the workloads of TensorFlow's guides.

    python examples/tour.py

Each section runs the guide's code with `import tracegraph as tf` and prints what the guide shows.
"""

import timeit

import tracegraph as tf


def section(title):
    print(f"\n=== {title} " + "=" * max(0, 70 - len(title)))


def eager_basics():
    section("Eager execution (guide: 'Introduction to graphs and tf.function')")
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)
    print("matmul(x1, y1) + b1 =", (tf.matmul(x1, y1) + b1).numpy())
    print(tf.maximum(0., tf.constant(5.5)))
    y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    print("MSE of two int32 vectors:", repr(tf.reduce_mean(tf.pow(y_true - y_pred, 2))))
    print("string tensors:", tf.constant("a") + tf.constant("a"))
    try:
        tf.gather(tf.constant([0.0]), [1])
    except tf.errors.InvalidArgumentError as e:
        print(f"eager gather out of range -> {type(e).__name__}: {e}")


def power_timing():
    section("Seed workload: power(x, 100), eager")
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    n = 200
    seconds = timeit.timeit(lambda: power(x, 100), number=n)
    print(f"Eager execution: {seconds / n * 1e3:.3f} ms per call "
          f"(TensorFlow 2.21 on this machine: about 1.45 ms)")


if __name__ == "__main__":
    eager_basics()
    power_timing()
