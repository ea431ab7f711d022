"""tf.device, tf.config.threading, set_log_device_placement and the UnreadVariable that
assign returns (issue 14, item 14 parts). Expected values and texts were taken from
TensorFlow 2.21."""

import subprocess
import sys

import pytest

import tracegraph as tf

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def test_device_scopes_keep_work_on_the_cpu_and_graphs_record_the_request():
    with tf.device("CPU:0"):
        assert tf.constant(1.0).device == CPU
    with tf.device("GPU:0"):  # soft placement, as TensorFlow without a GPU
        assert tf.ones([1]).device == CPU
    with tf.device(None):
        pass

    @tf.function
    def f(x):
        with tf.device("/cpu:0"):
            y = x + 1
        return y * 2

    graph = f.get_concrete_function(tf.TensorSpec([])).graph
    devices = {op.type: op.device for op in graph.operations}
    assert devices["AddV2"] == "/device:CPU:0" and devices["Mul"] == ""
    assert f(tf.constant(1.0)).numpy() == 4.0
    with pytest.raises(ValueError, match="Unknown attribute 'not a device' is encountered"):
        with tf.device("not a device"):   # TF parses the name on entering
            pass


# (name, what a graph op records) as TensorFlow 2.21: any case, with or without "/device:",
# a bare type means any index (*), "" changes nothing, unknown types only as /device:TYPE:N
SPELLINGS = [("cpu", "/device:CPU:*"), ("CPU", "/device:CPU:*"), ("GPU", "/device:GPU:*"),
             ("gpu", "/device:GPU:*"), ("TPU", "/device:TPU:*"), ("/gpu:0", "/device:GPU:0"),
             ("/GPU:0", "/device:GPU:0"), ("gpu:1", "/device:GPU:1"), ("cpu:*", "/device:CPU:*"),
             ("/device:GPU:0", "/device:GPU:0"), ("device:cpu:1", "/device:CPU:1"),
             ("/device:XLA_CPU:0", "/device:XLA_CPU:0"), ("/job:localhost", "/job:localhost"),
             ("/job:w/replica:1/task:2/gpu:*", "/job:w/replica:1/task:2/device:GPU:*"),
             ("", "")]


def test_device_names_are_accepted_in_tensorflows_spellings():
    for name, _ in SPELLINGS:
        if "/job:w" not in name:   # eagerly TF knows only this machine's job
            with tf.device(name):
                assert (tf.constant(1.0) + 1).device == CPU

    @tf.function
    def f(x):
        out = []
        for name, _ in SPELLINGS:
            with tf.device(name):
                out.append(tf.identity(x, name="n"))
        return out

    graph = f.get_concrete_function(tf.TensorSpec([])).graph
    ops = [op for op in graph.get_operations() if op.name.startswith("n")]
    assert [op.device for op in ops] == [recorded for _, recorded in SPELLINGS]


def test_nested_device_scopes_merge_as_tensorflows():
    @tf.function
    def f(x):
        with tf.device("/job:w/task:1"):
            a = tf.identity(x, name="a")
            with tf.device("gpu:0"):
                b = tf.identity(x, name="b")
                with tf.device(""):
                    c = tf.identity(x, name="c")
                with tf.device(None):
                    d = tf.identity(x, name="d")
            with tf.device("cpu"):
                e = tf.identity(x, name="e")
        return a, b, c, d, e

    graph = f.get_concrete_function(tf.TensorSpec([])).graph
    assert [graph.get_operation_by_name(n).device for n in "abcde"] == [
        "/job:w/task:1", "/job:w/task:1/device:GPU:0", "/job:w/task:1/device:GPU:0", "",
        "/job:w/task:1/device:CPU:*"]


@pytest.mark.parametrize("name, error, message", [
    ("foo", ValueError, "Unknown attribute 'foo' is encountered while parsing the device "
                        "spec: 'foo'."),
    ("/foo:0", ValueError, "Unknown attribute 'foo' is encountered"),
    ("/physical_device:CPU:0", ValueError, "Unknown attribute 'physical_device'"),
    ("/cpu:0/gpu:0", ValueError, "Multiple device types are not allowed while parsing the "
                                 "device spec: /cpu:0/gpu:0."),
    ("cpu:x", ValueError, "invalid literal for int"),
    (3, ValueError, "Expecting a string device name. Got <class 'int'>(3)"),
])
def test_bad_device_names_raise_tensorflows_errors(name, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        with tf.device(name):
            pass


def test_config_threading_is_tensorflows():
    assert tf.config.threading.get_inter_op_parallelism_threads() == 0
    assert tf.config.threading.get_intra_op_parallelism_threads() == 0
    assert not hasattr(tf.config.threading, "Thread")
    tf.constant(1)  # the runtime has started
    with pytest.raises(RuntimeError, match="Inter op parallelism cannot be modified after "
                                           "initialization."):
        tf.config.threading.set_inter_op_parallelism_threads(3)
    tf.config.threading.set_intra_op_parallelism_threads(0)  # unchanged: allowed


def test_config_threading_before_the_first_op():
    code = ("import tracegraph as tf\n"
            "tf.config.threading.set_inter_op_parallelism_threads(2)\n"
            "tf.config.threading.set_intra_op_parallelism_threads(3)\n"
            "print(tf.config.threading.get_inter_op_parallelism_threads(),"
            " tf.config.threading.get_intra_op_parallelism_threads())\n"
            "tf.constant(1)\n"
            "try:\n"
            "    tf.config.threading.set_intra_op_parallelism_threads(4)\n"
            "except RuntimeError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "2 3\nIntra op parallelism cannot be modified after initialization.\n"


def test_assign_returns_an_unread_variable():
    v = tf.Variable(1.0)
    r = v.assign(2.0)
    assert str(r) == repr(r) == "<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=2.0>"
    assert type(r).__name__ == "_UnreadVariable"
    assert str(v.assign_add(1.0)) == \
        "<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=3.0>"
    assert r.numpy() == 3.0 and float(r + 1) == 4.0  # it reads the current value
    v2 = tf.Variable([1, 2])
    assert str(v2.assign_sub([1, 1])) == ("<tf.Variable 'UnreadVariable' shape=(2,) "
                                          "dtype=int32, numpy=array([0, 1], dtype=int32)>")
    assert v.assign(5.0, read_value=False) is None


def test_log_device_placement(capfd):
    tf.debugging.set_log_device_placement(True)
    try:
        tf.matmul(tf.ones([1, 2]), tf.ones([2, 1]))
    finally:
        tf.debugging.set_log_device_placement(False)
    tf.ones([1]) + 1
    err = capfd.readouterr().err
    assert "MatMul: (MatMul): /job:localhost/replica:0/task:0/device:CPU:0" in err
    assert "AddV2" not in err


def test_intra_op_threads_size_blas_and_jit_kernels():
    # NumPy's OpenBLAS and the jit executor's parallel kernels follow the intra-op setting
    code = ("import numpy as np\n"
            "import tracegraph as tf\n"
            "from threadpoolctl import threadpool_info\n"
            "tf.config.threading.set_intra_op_parallelism_threads(1)\n"
            "print(max([p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas']"
            " or [1]))\n"
            "f = tf.function(lambda x: tf.tanh(x * 2.0) + 1.0, jit_compile=True)\n"
            "y = f(tf.constant(np.ones(1 << 21, np.float32)))\n"
            "from tracegraph.execute import jit, jit_build\n"
            "jit_build.wait_for_kernels()\n"
            "y = f(tf.constant(np.ones(1 << 21, np.float32)))\n"
            "if jit.numba_available():\n"
            "    import numba\n"
            "    print(numba.get_num_threads())\n"
            "else:\n"
            "    print(1)\n"
            "print(abs(float(y[0]) - float(np.tanh(2.0) + 1)) < 1e-6)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "1\n1\nTrue\n"
