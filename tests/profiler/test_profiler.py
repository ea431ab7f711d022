"""tf.profiler.experimental: the profile of eager ops, tf.function graphs (codegen and the
interpreter) and Session runs, each op with its time and user line, read back from the XSpace
TensorBoard's profile plugin opens (and, when XProf is installed, by the plugin's own reader)."""

import glob
import gzip
import json
import os
import subprocess
import sys

import pytest

import tracegraph as tf
from tracegraph.profiler.xspace import messages


@pytest.fixture(autouse=True)
def _one_executor():
    """The suite runs every graph on the interpreter too (a cross-check): here it would time
    each op twice; its jit and parallel modes would fuse or split the graphs tested here."""
    from tracegraph import config
    from tracegraph.execute.crosscheck import crosscheck, set_crosscheck
    was, forced = crosscheck(), config.forced_executor()
    set_crosscheck(False)
    config.force_executor(None)   # the code generator's lines, not fused clusters
    yield
    set_crosscheck(was)
    config.force_executor(forced)


def _space(logdir):
    files = glob.glob(os.path.join(logdir, "plugins", "profile", "*", "*.xplane.pb"))
    assert len(files) == 1, files
    space = messages()["XSpace"]()
    with open(files[0], "rb") as f:
        space.ParseFromString(f.read())
    return files[0], space


def _events(space):
    """[(thread, name, display name, duration_ps, {stat: value})] of the host plane."""
    plane = next(p for p in space.planes if p.name == "/host:CPU")
    stat_names = {k: v.name for k, v in plane.stat_metadata.items()}
    out = []
    for line in plane.lines:
        for e in line.events:
            meta = plane.event_metadata[e.metadata_id]
            stats = {stat_names[s.metadata_id]: getattr(s, s.WhichOneof("value"))
                     for s in e.stats}
            out.append((line.name, meta.name, meta.display_name, e.duration_ps, stats))
    return out


def _line_of(text: str) -> int:
    with open(__file__) as f:
        return next(i for i, line in enumerate(f, 1) if text in line)


def test_eager_and_graph_ops_with_their_times_and_lines(tmp_path):
    x = tf.constant([[1., 2.], [3., 4.]])

    @tf.function
    def f(x):
        return tf.nn.relu(tf.matmul(x, x) - 1.0)   # the graph's line

    f(x)
    tf.profiler.experimental.start(str(tmp_path))
    for step in range(2):
        with tf.profiler.experimental.Trace("train", step_num=step, _r=1):
            tf.matmul(x, x)   # the eager line
            f(x)
    tf.profiler.experimental.stop()
    path, space = _space(tmp_path)
    assert os.path.basename(path) == f"{space.hostnames[0]}.xplane.pb"
    events = _events(space)
    assert {e[0] for e in events} == {"python"}
    steps = [e for e in events if e[1] == "train"]
    assert [s[4]["step_num"] for s in steps] == [0, 1] and all(s[3] > 0 for s in steps)
    eager = [e for e in events if e[1] == "MatMul:MatMul" and e[4].get("is_eager") == 1]
    graph_line = f"{__file__}:{_line_of('# the graph' + chr(39) + 's line')}"
    assert len(eager) == 2
    assert eager[0][4]["source_info"] == f"{__file__}:{_line_of('# the eager line')}"
    for name, kind in (("MatMul:MatMul", "MatMul"), ("sub:Sub", "Sub"), ("Relu:Relu", "Relu")):
        ops = [e for e in events if e[1] == name and "is_eager" not in e[4]]
        assert len(ops) == 2, name
        assert ops[0][2] == kind and ops[0][4]["source_info"] == graph_line
        assert all(op[3] > 0 for op in ops)
    calls = [e for e in events if e[1] == "f"]
    assert [c[4]["tf_function_call"] for c in calls] == ["notTraced-nonXla"] * 2
    # as TensorFlow's: each eager op inside an "EagerExecute" naming it
    wrappers = [e for e in events if e[1] == "EagerExecute"]
    assert [w[4] for w in wrappers if w[4]["eager_op"] == "MatMul"] == \
        [{"eager_op": "MatMul", "is_func": 0}] * 2
    assert all(w[3] >= op[3] for w, op in zip(wrappers, eager))
    env = next(p for p in space.planes if p.name == "Task Environment")
    names = {k: v.name for k, v in env.stat_metadata.items()}
    times = {names[s.metadata_id]: s.uint64_value for s in env.stats}
    assert 0 < times["profile_stop_time"] - times["profile_start_time"] < 60e9


def test_chrome_trace_beside_it(tmp_path):
    with tf.profiler.experimental.Profile(str(tmp_path)):
        tf.reduce_sum(tf.ones([3]))
    trace = glob.glob(os.path.join(tmp_path, "plugins", "profile", "*", "*.trace.json.gz"))
    with gzip.open(trace[0], "rt") as f:
        events = json.load(f)["traceEvents"]
    threads = [e for e in events if e["ph"] == "M" and e["name"] == "thread_name"]
    assert threads[0]["args"]["name"] == "python"
    ops = {e["name"]: e for e in events if e["ph"] == "X"}
    assert {"Fill:Fill", "Sum:Sum"} <= set(ops)
    assert ops["Sum:Sum"]["dur"] >= 0 and ops["Sum:Sum"]["args"]["type"] == "Sum"
    assert ops["Sum:Sum"]["args"]["source_info"].startswith(__file__ + ":")


def test_code_is_timed_only_while_profiling(tmp_path):
    @tf.function
    def g(x):
        return x * 2.0 + 1.0

    x = tf.constant([1.0, 2.0])
    g(x)
    cf = g.get_concrete_function(x)
    untimed = cf.generated_code
    assert "_prof(" not in untimed
    tf.profiler.experimental.start(str(tmp_path))
    try:
        g(x)
        timed = cf.generated_code
        assert timed.count("_prof(") == 2 and timed.count("_pt = _now()") == 2
    finally:
        tf.profiler.experimental.stop()
    g(x)
    assert cf.generated_code == untimed   # the untimed code runs again


def test_interpreter_and_session_runs_are_profiled(tmp_path):
    h = tf.function(lambda x: tf.sqrt(x) * 3.0, executor="interpreter")
    with tf.Graph().as_default():
        p = tf.compat.v1.placeholder(tf.float32, [2])
        q = tf.exp(p)
        sess = tf.compat.v1.Session()
    with tf.profiler.experimental.Profile(str(tmp_path)):
        h(tf.constant([4.0]))
        sess.run(q, {p: [0.0, 1.0]})
    events = _events(_space(tmp_path)[1])
    names = {e[1] for e in events}
    assert {"Sqrt:Sqrt", "mul:Mul", "Exp:Exp"} <= names
    assert any(n.startswith("session_run_") for n in names)
    # h traced inside the profile: its tracing is an event, its first call says so (TF's)
    assert "tf.function-graph_building" in names
    assert [e[4] for e in events if e[1] == "<lambda>"] == [
        {"tf_function_call": "traced-nonXla"}]


def test_errors_and_trace_outside_a_profile(tmp_path):
    with pytest.raises(tf.errors.UnavailableError,
                       match="^Cannot export profiling results. No profiler is running.$"):
        tf.profiler.experimental.stop()
    tf.profiler.experimental.start(str(tmp_path))
    try:
        with pytest.raises(tf.errors.AlreadyExistsError, match="^Another profiler is running.$"):
            tf.profiler.experimental.start(str(tmp_path))
    finally:
        tf.profiler.experimental.stop(save=False)
    assert not os.path.exists(tmp_path / "plugins")

    @tf.profiler.experimental.Trace("decorated")
    def work():
        return 3

    with tf.profiler.experimental.Trace("nothing", step_num=1):   # no profile: nothing
        assert work() == 3
    options = tf.profiler.experimental.ProfilerOptions(host_tracer_level=3)
    assert options.host_tracer_level == 3 and options.python_tracer_level == 0


XPROF_CHECK = """
import glob, json, sys
from xprof.convert import raw_to_tool_data as r
files = glob.glob(sys.argv[1] + "/plugins/profile/*/*.xplane.pb")
data, _ = r.xspace_to_tool_data(files, "framework_op_stats", {})
rows = json.loads(data)[0]["rows"]
print(json.dumps({row["c"][3]["v"]: [row["c"][4]["v"], row["c"][-1]["v"]] for row in rows}))
data, _ = r.xspace_to_tool_data(files, "trace_viewer", {})
events = [e for e in json.loads(data)["traceEvents"] if e.get("ph") == "X"]
args = [e.get("args", {}) for e in events]
print(json.dumps({a.get("long_name", e["name"]): a.get("tf_function_call")
                  for e, a in zip(events, args)}))
"""


def _xprof_python():
    """A Python with XProf (TensorBoard's profile plugin), if there is one: this one, or
    $TRACEGRAPH_XPROF_PYTHON (XProf's dependencies are many; a separate venv is fine)."""
    for python in (sys.executable, os.environ.get("TRACEGRAPH_XPROF_PYTHON")):
        if python and subprocess.run([python, "-c", "import xprof.convert.raw_to_tool_data"],
                                     capture_output=True).returncode == 0:
            return python
    return None


@pytest.mark.slow
def test_tensorboards_profile_plugin_reads_it(tmp_path):
    python = _xprof_python()
    if python is None:
        pytest.skip("XProf (pip install tensorboard-plugin-profile) is not installed")

    @tf.function
    def f(x):
        return tf.nn.relu(tf.matmul(x, x) - 1.0)

    x = tf.constant([[1., 2.], [3., 4.]])
    with tf.profiler.experimental.Profile(str(tmp_path)):
        for _ in range(3):
            f(x)
            x + 1.0
    done = subprocess.run([python, "-c", XPROF_CHECK, str(tmp_path)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    stats, names = (json.loads(line) for line in done.stdout.splitlines())
    assert stats["MatMul"] == stats["sub"] == stats["Relu"] == [3, "Function"]
    assert stats["AddV2"] == [3, "Eager"]   # the eager op, as XProf tells them apart
    assert {"MatMul:MatMul", "sub:Sub", "Relu:Relu", "AddV2:AddV2", "EagerExecute",
            "tf.function-graph_building"} <= set(names)
    assert names["f"] == "notTraced-nonXla"


def test_summary_trace_on_with_the_profiler(tmp_path, caplog):
    """TensorBoard's graphs tutorial: `tf.summary.trace_on(graph=True, profiler=True,
    profiler_outdir=logdir)` then `trace_export` writes the graphs to the summary writer and
    the profile beside them (TF 2.21's warnings when the outdir is missing or misplaced)."""
    pytest.importorskip("tensorboard")

    @tf.function
    def my_func(x, y):
        return tf.nn.relu(tf.matmul(x, y))

    x = tf.ones((3, 3))
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True, profiler=True, profiler_outdir=str(tmp_path))
    my_func(x, x)
    with writer.as_default():
        tf.summary.trace_export(name="my_func_trace", step=0, profiler_outdir="elsewhere")
    writer.flush()
    assert glob.glob(os.path.join(tmp_path, "events.out.tfevents.*"))
    names = {e[1] for e in _events(_space(tmp_path)[1])}
    assert {"MatMul:MatMul", "Relu:Relu", "my_func"} <= names
    tf.summary.trace_on(profiler=True)   # no outdir: graphs only
    tf.summary.trace_off()
    assert [r.getMessage() for r in caplog.records] == [
        "Ignoring `profiler_outdir` passed to trace_export(). Please pass it to trace_on() "
        "instead.",
        "No `profiler_outdir` passed to trace_on(). Profiler won't be enabled."]
