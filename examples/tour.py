"""A tour of tracegraph on the workloads of TensorFlow's guides.

    python examples/tour.py          # files go to a temporary directory, removed at the end
    python examples/tour.py DIR      # TensorBoard logs and the saved model are kept in DIR

Each section runs the guide's code with `import tracegraph as tf` and prints what the guide shows,
then what tracegraph adds: the traced graph, the generated code, timings, an input pipeline.
Times marked "measured now" are taken on your machine as the tour runs; TensorFlow's figures
beside them are stored reference figures, measured once with TensorFlow 2.21 on the project's
2-core machine (not on yours: bench/ measures both side by side, `--compare PYTHON`).
"""

import pathlib
import sys
import tempfile
import timeit

import tracegraph as tf


def section(title):
    print(f"\n=== {title} " + "=" * max(0, 74 - len(title)))


def reference(figure: str) -> str:
    """TensorFlow's figure for a timing, said to be a stored one (not measured now)."""
    return f"TensorFlow 2.21: {figure}, a stored reference figure from the project's machine"


def eager_basics():
    section("Eager execution")
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)
    print("matmul(x1, y1) + b1 =", (tf.matmul(x1, y1) + b1).numpy())
    print(tf.maximum(0., tf.constant(5.5)))
    print("string tensors:", tf.constant("a") + tf.constant("a"))
    try:
        tf.gather(tf.constant([0.0]), [1])
    except tf.errors.InvalidArgumentError as e:
        print(f"eager gather out of range -> {type(e).__name__}: {e}")


def polymorphism():
    section("Polymorphism: one Function, several graphs")

    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)

    print(my_relu(tf.constant(5.5)))
    print(my_relu([1, -1]))
    print(my_relu(tf.constant([3., -3.])))
    print(my_relu(tf.constant(-2.5)))         # same signature: no new graph
    print(my_relu(tf.constant([-1., 1.])))
    print(my_relu.pretty_printed_concrete_signatures())
    cf = my_relu.get_concrete_function(tf.constant(1.0))
    print("\nThe traced graph, one line per op:")
    print(cf.graph.to_text())
    print("\nThe Python the code generator emitted for it:")
    print(cf.generated_code)


def tracing_side_effects():
    section("Tracing: Python side effects run once per signature")

    @tf.function
    def get_mse(y_true, y_pred):
        print("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    for _ in range(3):
        error = get_mse(y_true, y_pred)
    print("MSE of two int32 vectors (an int32, as in TensorFlow):", repr(error))

    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # unused: a graph never runs it (non-strict execution)
        return x

    print("non-strict:", unused_return_graph(tf.constant([0.0])))


def power_timing():
    section("Seed workload: power(x, 100), eager vs graph")
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    power_as_graph = tf.function(power)
    n = 200
    eager = timeit.timeit(lambda: power(x, 100), number=n) / n * 1e3
    power_as_graph(x, 100)
    graph = timeit.timeit(lambda: power_as_graph(x, 100), number=n) / n * 1e3
    print(f"Eager execution: {eager:.3f} ms per call, measured now "
          f"({reference('about 1.41 ms')})")
    print(f"Graph execution: {graph:.3f} ms per call, measured now "
          f"({reference('about 0.25 ms')})")


def autograph():
    section("AutoGraph: Python control flow on tensors")

    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    tf_simple_relu = tf.function(simple_relu)
    print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
    print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
    print("\ntf.autograph.to_code(simple_relu):")
    print(tf.autograph.to_code(simple_relu))
    graph = tf_simple_relu.get_concrete_function(tf.constant(1)).graph
    print("Its graph (the cond op holds both branches as sub-graphs):")
    print(graph.to_text())
    graph_def = str(graph.as_graph_def())
    print(f"\nas_graph_def(): {graph_def.count('node {')} nodes, "
          f"{graph_def.count('function {')} functions in the library; the first lines:")
    print("\n".join(graph_def.splitlines()[:12]) + "\n  ...")

    @tf.function
    def series(n):
        i = tf.constant(0)
        s = tf.constant(0.0)
        while i < n:
            s += 1.0 / tf.cast((i + 1) * (i + 1), tf.float32)
            i += 1
        return s

    n = tf.constant(1000)
    print("\nA tensor while loop (sum of 1/k^2, 1000 terms):", series(n).numpy())
    t = timeit.timeit(lambda: series(n), number=50) / 50 * 1e3
    print(f"graph time: {t:.3f} ms per call, measured now ({reference('about 3.3-4.1 ms')})")
    print("The generated loop is plain Python around NumPy scalars:")
    print(series.get_concrete_function(n).generated_code)


def grappler():
    section("Grappler: the optimizer and its report")
    import contextlib

    import numpy as np

    @contextlib.contextmanager
    def options(options):
        old_opts = tf.config.optimizer.get_experimental_options()
        tf.config.optimizer.set_experimental_options(options)
        try:
            yield
        finally:
            tf.config.optimizer.set_experimental_options(old_opts)

    def test_function_1():
        @tf.function
        def simple_function(input_arg):
            print("Tracing!")
            a = tf.constant(np.random.randn(500, 500) / 25, dtype=tf.float32)
            c = a
            for _ in range(20):
                c = c @ a
            return tf.reduce_mean(c + input_arg)
        return simple_function

    x = tf.constant(2.2)
    with options({"constant_folding": False}):
        print(tf.config.optimizer.get_experimental_options())
        simple_function = test_function_1()
        simple_function(x)
        off = timeit.timeit(lambda: simple_function(x), number=5) / 5
        print(f"Vanilla execution: {off:.6f} s, measured now")
    with options({"constant_folding": True}):
        print(tf.config.optimizer.get_experimental_options())
        simple_function = test_function_1()
        simple_function(x)
        on = timeit.timeit(lambda: simple_function(x), number=50) / 50
        print(f"Constant folded execution: {on:.6f} s, measured now ({off / on:.0f}x faster; "
              f"{reference('about 0.00023 s')})")
        cf = simple_function.get_concrete_function(x)
        print("\nThe optimizer's report (Grappler's format), for the folded function:")
        print(cf.optimizer_report.text())
        print("\nWhat each rewrite did (first five):")
        for rewrite in cf.optimizer_report.rewrites[:5]:
            print("  ", rewrite)
        print("\nThe optimized graph (the traced graph stays as traced):")
        print(cf.optimized_graph.to_text())

    def test_function_2():
        @tf.function
        def simple_func(input_arg):
            output = input_arg
            tf.debugging.check_numerics(output, "Bad!")
            return output
        return simple_func

    p1 = tf.constant(float("inf"))
    try:
        test_function_2()(p1)
    except tf.errors.InvalidArgumentError as e:
        print("\ncheck_numerics raises:", str(e).splitlines()[0])
    with options({"debug_stripper": True}):
        print("with debug_stripper on, it is gone:", test_function_2()(p1))


def training():
    section("Training: GradientTape in a tf.function, backward ops in the same graph")

    class Linear(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def __call__(self, x):
            return self.w * x + self.b

    x = tf.linspace(-2.0, 2.0, 201)
    y = x * 3.0 + 2.0 + tf.sin(x * 7.0) * 0.5
    model = Linear()

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - model(x)))
        dw, db = tape.gradient(loss, [model.w, model.b])
        model.w.assign_sub(0.1 * dw)
        model.b.assign_sub(0.1 * db)
        return loss

    for epoch in range(10):
        loss = train_step(x, y)
        print(f"epoch {epoch}: loss {loss.numpy():.5f}  w={model.w.numpy():.3f} "
              f"b={model.b.numpy():.3f}")
    print("\nThe generated code of the training step (forward, backward, updates):")
    print(train_step.get_concrete_function(x, y).generated_code)
    return model


def input_pipeline():
    section("tf.data: a pipeline feeding its training loop, inside one tf.function")
    import numpy as np
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4096, 8)).astype(np.float32)
    y = (x @ np.arange(1.0, 9.0, dtype=np.float32) + 0.5).astype(np.float32)

    def normalize(features, label):
        return features / 2.0, label * 0.1
    ds = (tf.data.Dataset.from_tensor_slices((x, y))
          .map(normalize, num_parallel_calls=tf.data.AUTOTUNE)
          .shuffle(4096, seed=1)
          .batch(128, drop_remainder=True)
          .prefetch(tf.data.AUTOTUNE))
    print(ds)
    print(ds.execution_plan())
    w = tf.Variable(tf.zeros([8]))
    b = tf.Variable(0.0)

    @tf.function
    def train_epoch(ds):
        total = tf.constant(0.0)
        steps = tf.constant(0)
        for xb, yb in ds:                      # a While loop over the iterator's ops
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.linalg.matvec(xb, w) + b - yb))
            dw, db = tape.gradient(loss, [w, b])
            w.assign_sub(0.2 * dw)
            b.assign_sub(0.2 * db)
            total += loss
            steps += 1
        return total / tf.cast(steps, tf.float32)

    for epoch in range(5):
        print(f"epoch {epoch}: mean loss {float(train_epoch(ds)):.5f}")
    print("traces:", train_epoch.experimental_get_tracing_count(),
          "(one per DatasetSpec; each epoch reshuffles)")
    print("w * 5 =", np.round(w.numpy() * 5, 2), "(x was halved and y scaled by 0.1: the "
          "weights 1..8 the data was made with)")


def saved_model(directory):
    section("Saved graphs: save here, load in a process without the source")
    import subprocess

    @tf.function
    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    class Holder:
        pass
    holder = Holder()
    holder.power = power
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)
    here = power(x, 100)
    directory = str(directory)
    tf.saved_model.save(holder, directory)
    print("saved to", directory)
    code = ("import json, sys, numpy as np, tracegraph as tf\n"
            "loaded = tf.saved_model.load(sys.argv[1])\n"
            "x = tf.constant(np.array(json.loads(sys.argv[2]), np.int32))\n"
            "print(loaded.power(x, 100).numpy().tolist())")
    # the child process gets the directory and the input, not the Python source of `power`
    out = subprocess.run([sys.executable, "-c", code, directory, repr(x.numpy().tolist())],
                         capture_output=True, text=True, check=True).stdout
    same = out.strip() == repr(here.numpy().tolist())
    print("loaded in a fresh process, power(x, 100) equals the original:", same)
    subprocess.run([sys.executable, "-m", "tracegraph.saved_model", "show", "--dir",
                    directory, "--all"], check=True)


def trained_model_for_tensorflow(model, base):
    section("The trained model in TensorFlow's SavedModel format")
    import os
    import pathlib
    import subprocess

    model.predict = tf.function(lambda x: {"y": model(x)},
                                input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
    directory = os.path.join(base, "linear", "1")
    try:
        tf.saved_model.save(model, directory, format="tensorflow")   # TF Serving's version 1
    except ImportError as e:
        print(e)
        return
    print("saved to", directory, sorted(os.listdir(directory)))
    x = [-1.0, 0.0, 2.0]
    print("tracegraph:", model.predict(tf.constant(x))["y"].numpy())
    again = tf.saved_model.load(directory)
    print("tracegraph, loaded again:", again.signatures["serving_default"](
        x=tf.constant(x))["y"].numpy())
    python = os.environ.get("TRACEGRAPH_TF_PYTHON") or str(
        pathlib.Path.home() / ".cache" / "tracegraph-tf221" / "bin" / "python")
    if not os.path.exists(python):
        print("not checked by TensorFlow: no Python with TensorFlow here (set "
              "TRACEGRAPH_TF_PYTHON to check it)")
        return
    code = ("import sys, tensorflow as tf\n"
            "loaded = tf.saved_model.load(sys.argv[1])\n"
            "out = loaded.signatures['serving_default'](x=tf.constant([-1.0, 0.0, 2.0]))\n"
            "print('TensorFlow', tf.__version__, 'loaded it:', out['y'].numpy(),"
            " 'w =', loaded.w.numpy())")
    done = subprocess.run([python, "-c", code, directory], capture_output=True, text=True,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    print(done.stdout.strip() if done.returncode == 0 else
          f"TensorFlow could not load it:\n{done.stderr[-2000:]}")


def tensorflow_saved_model():
    section("A SavedModel TensorFlow wrote, run without TensorFlow")
    import pathlib

    import numpy as np

    import tracegraph.formats.tensorflow as tf_formats
    model = pathlib.Path(__file__).resolve().parent.parent / "tests" / "formats" / \
        "tensorflow" / "fixtures" / "cnn"      # written by TensorFlow 2.21 (make_fixtures.py)
    try:
        used = tf_formats.op_types(model)    # read from saved_model.pb before anything runs
    except ImportError as e:
        print(e)
        return
    print(f"{len(used)} op types:", ", ".join(used))
    print("missing from tracegraph:", tf_formats.unsupported_op_types(model) or "none")
    loaded = tf.saved_model.load(str(model))
    image = tf.constant(np.random.default_rng(0).normal(size=(1, 16, 16, 1)).astype(np.float32))
    out = loaded.signatures["serving_default"](images=image)
    print("serving_default ->", {k: v.shape.as_list() for k, v in out.items()},
          "class", int(out["classes"].numpy()[0]))
    print("variables from its bundle:", [v.name for v in loaded.variables])


def jit_compile():
    section("jit_compile=True: elementwise ops fused into one numba kernel")
    import numpy as np

    def chain(x):
        return tf.nn.relu(x * 1.5 + 0.25) * tf.tanh(x) - 0.5 * x

    from tracegraph.execute.jit import numba_available
    if not numba_available():
        print("jit_compile=True needs the numba extra: pip install 'tracegraph[numba]'")
        return
    x = tf.constant(np.random.default_rng(0).normal(size=(4_000_000,)).astype(np.float32))
    plain, fused = tf.function(chain), tf.function(chain, jit_compile=True)
    fused(x)   # answered op by op while the kernel compiles in the background
    plain(x)
    print("Where the first call's time went (measured now; wait=True waits for the kernel):")
    print(fused.get_concrete_function(x).experimental_first_call_report(wait=True))
    t_plain = timeit.timeit(lambda: plain(x), number=10) / 10
    t_fused = timeit.timeit(lambda: fused(x), number=10) / 10
    print(f"relu(x*1.5+0.25)*tanh(x)-0.5*x on 4M float32, measured now: tf.function "
          f"{t_plain * 1e3:.2f} ms, jit_compile=True {t_fused * 1e3:.2f} ms")
    cf = fused.get_concrete_function(x)
    print("\nThe generated code calls one kernel:")
    print(cf.generated_code)
    print([line for line in cf.optimizer_report.text().splitlines() if "jit_fusion" in line][0])
    from tracegraph.execute.compile import compile_subgraph
    cluster = next(op for op in cf.optimized_graph.get_operations()
                   if op.type == "_FusedElementwise")
    source = compile_subgraph(cluster.attrs["f"], "jit").source
    print("\n... and the kernel's loop (the numba source, cached on disk):")
    print(source[source.index("@numba.njit(cache=True, error_model"):])

    @tf.function(jit_compile=True)
    def loop(n):
        i, s = tf.constant(0), tf.constant(0.0)
        while i < n:
            s = s * 0.5 + tf.cast(i, tf.float32)
            i += 1
        return s

    n = tf.constant(1000)
    loop(n)
    from tracegraph.execute.jit_build import wait_for_kernels
    wait_for_kernels()
    t_loop = timeit.timeit(lambda: loop(n), number=100) / 100
    print(f"AutoGraph while loop of 1000 scalar iterations compiled whole: {t_loop * 1e6:.1f} us,"
          " measured now")


def threads():
    section("Independent branches run side by side on the inter-op threads")
    import numpy as np
    x = np.random.default_rng(0).normal(size=(1 << 18,)).astype(np.float32)

    def branches(x):   # 8 branches with no edge between them
        return [tf.exp(tf.sin(x * float(i + 1)) * 0.5) for i in range(8)]

    def numpy_branches():
        return [np.exp(np.sin(x * np.float32(i + 1)) * np.float32(0.5)) for i in range(8)]

    f = tf.function(branches)
    tx = tf.constant(x)
    f(tx)
    parts = f.get_concrete_function(tx).generated_code.count("# --- runs on thread")
    t_graph = min(timeit.repeat(lambda: f(tx), number=10, repeat=3)) / 10
    t_numpy = min(timeit.repeat(numpy_branches, number=10, repeat=3)) / 10
    print(f"{parts} parts on the inter-op threads: {t_graph * 1e3:.2f} ms per call; the same ops "
          f"in NumPy, one after another: {t_numpy * 1e3:.2f} ms (both measured now)")
    print("tf.config.threading.get_inter_op_parallelism_threads() =",
          tf.config.threading.get_inter_op_parallelism_threads(), "(0: one per core)")


def tensorboard_and_images(logdir, keep=True):
    """A small training loop writing a TensorBoard logdir (read back to check it), and a picture
    of its graph."""
    import importlib.util
    import shutil
    section("TensorBoard and graph images")
    w = tf.Variable(tf.zeros([3, 1]))
    step = tf.Variable(0, dtype=tf.int64)
    x = tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [2.0, 0.0, -1.0], [1.0, 1.0, 1.0]])
    y = tf.matmul(x, tf.constant([[0.5], [-1.0], [2.0]]))

    @tf.function
    def train_step(lr):
        pred = tf.matmul(x, w)
        grad = tf.matmul(x, pred - y, transpose_a=True) * (2.0 / 4.0)  # d mse / d w
        w.assign_sub(lr * grad)
        loss = tf.reduce_mean(tf.square(pred - y))
        tf.summary.scalar("loss", loss, step=step)
        tf.summary.histogram("w", w, step=step)
        step.assign_add(1)
        return loss

    lr = tf.constant(0.05)
    if importlib.util.find_spec("tensorboard") is None:
        print("(pip install 'tracegraph[tensorboard]' to write a TensorBoard logdir; without a "
              "default writer the summaries record nothing)")
        concrete = train_step.get_concrete_function(lr)
        for _ in range(50):
            loss = train_step(lr)
    else:
        writer = tf.summary.create_file_writer(str(logdir))
        with writer.as_default():
            # traced while the writer is the default, as in TensorFlow: the summaries become
            # ops of the graph (a function traced before any writer records nothing)
            concrete = train_step.get_concrete_function(lr)
            tf.summary.trace_on(graph=True)
            for _ in range(50):
                loss = train_step(lr)
            tf.summary.trace_export("train_step", step=0)
        writer.close()
        from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
        events = EventAccumulator(str(logdir), size_guidance={"tensors": 0})
        events.Reload()
        losses = events.Tensors("loss")
        graph_plugin = events.SummaryMetadata("train_step").plugin_data.plugin_name
        print(f"wrote {logdir}; read back with TensorBoard's EventAccumulator: "
              f"{len(losses)} loss scalars (steps {losses[0].step}-{losses[-1].step}), "
              f"{len(events.Tensors('w'))} histograms of w, the graph of train_step "
              f"({graph_plugin})")
        if keep:
            print(f"view it with: tensorboard --logdir {logdir}")
    print(f"loss after 50 steps: {float(loss):.5f}")
    if shutil.which("dot") and importlib.util.find_spec("graphviz"):
        path = concrete.optimized_graph.to_image(str(pathlib.Path(logdir) / "train_step.svg"))
        print(f"the optimized graph as an image: {path}")
    else:
        dot = concrete.graph.to_dot()
        print(f"graph.to_dot(): {dot.count(' -> ')} edges of DOT text (pip install "
              "'tracegraph[graphviz]' and Graphviz's dot for SVG/PNG images)")


def keras_digits():
    section("Keras: real Keras 3 as tf.keras, trained with fit on handwritten digits")
    import importlib.util
    missing = [extra for extra, module in (("keras", "keras"), ("dev", "sklearn"))
               if importlib.util.find_spec(module) is None]
    if missing:
        print("needs Keras and scikit-learn's digits: pip install "
              + " ".join(f"'tracegraph[{extra}]'" for extra in missing))
        return
    import time

    import numpy as np
    from sklearn.datasets import load_digits
    keras = tf.keras   # the real Keras, its TensorFlow backend running on tracegraph
    digits = load_digits()
    order = np.random.default_rng(0).permutation(len(digits.data))
    x = (digits.data[order] / 16.0).astype(np.float32)
    y = digits.target[order]
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(64, activation="relu"),
                              keras.layers.Dropout(0.1), keras.layers.Dense(10)])
    model.compile(keras.optimizers.Adam(0.005),
                  keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.summary()
    start = time.perf_counter()
    history = model.fit(x[:1437], y[:1437], epochs=8, batch_size=32, validation_split=0.1,
                        callbacks=[keras.callbacks.EarlyStopping(patience=2)])
    seconds = time.perf_counter() - start
    steps = len(history.history["loss"]) * 41   # 1,294 training samples, batches of 32
    print(f"fit: {seconds:.2f} s for {steps} steps, {1e3 * seconds / steps:.2f} ms a step "
          f"(measured now; bench/keras_fit.py compares with Keras on TensorFlow side by side)")
    loss, accuracy = model.evaluate(x[1437:], y[1437:], verbose=0)
    predicted = np.argmax(model.predict(x[1437:], verbose=0), axis=1)
    print(f"held-out 360 digits: evaluate accuracy {accuracy:.3f}, predict agrees on "
          f"{np.mean(predicted == y[1437:]):.3f}")


def main(argv):
    """Runs every section; files go under argv[1] when given (kept), else a temporary
    directory removed at the end."""
    temporary = None
    if len(argv) > 1:
        out = pathlib.Path(argv[1]).resolve()
        out.mkdir(parents=True, exist_ok=True)
        print(f"The tour writes its TensorBoard logs and saved model under {out} (kept).")
    else:
        temporary = tempfile.TemporaryDirectory(prefix="tracegraph_tour_")
        out = pathlib.Path(temporary.name)
        print(f"The tour writes its TensorBoard logs and saved model under {out} (removed at "
              "the end; run `python examples/tour.py DIR` to keep them in DIR).")
    try:
        eager_basics()
        polymorphism()
        tracing_side_effects()
        power_timing()
        autograph()
        grappler()
        trained = training()
        input_pipeline()
        jit_compile()
        threads()
        saved_model(out / "saved_model")
        trained_model_for_tensorflow(trained, out / "tf_saved_model")
        tensorflow_saved_model()
        tensorboard_and_images(out / "logs", keep=temporary is None)
        keras_digits()   # last: tf.keras binds the name `tensorflow` to tracegraph (README)
    finally:
        if temporary is not None:
            temporary.cleanup()
            print(f"\nremoved {out}")


if __name__ == "__main__":
    main(sys.argv)
