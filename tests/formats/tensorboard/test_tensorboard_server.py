"""The real TensorBoard, started on loopback against a logdir tracegraph wrote, serves the
scalars and the graphs over HTTP."""

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

import tracegraph as tf

pytest.importorskip("tensorboard")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 60.0) -> bytes:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read()
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _write_logdir(logdir):
    writer = tf.summary.create_file_writer(str(logdir))
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def train(x):
        loss = tf.reduce_mean(tf.square(x - 1.0))
        tf.summary.scalar("loss", loss, step=step)
        step.assign_add(1)
        return loss

    with writer.as_default():
        tf.summary.trace_on(graph=True)
        for i in range(3):
            train(tf.fill([4], float(i)))
        tf.summary.trace_export("train", step=0)
        tf.summary.graph(train.get_concrete_function(tf.fill([4], 0.0)).graph)
    writer.close()


@pytest.mark.slow
def test_tensorboard_serves_scalars_and_graphs(tmp_path):
    _write_logdir(tmp_path)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tensorboard.main", "--logdir", str(tmp_path), "--host",
         "127.0.0.1", "--port", str(port), "--load_fast", "false", "--reload_interval", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/data/plugin"
    try:
        deadline = time.monotonic() + 60
        while True:  # the first load of the logdir happens in the background
            tags = json.loads(_get(f"{base}/scalars/tags"))
            if tags.get(".", {}).get("loss") or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        points = json.loads(_get(f"{base}/scalars/scalars?run=.&tag=loss"))
        assert [p[1] for p in points] == [0, 1, 2]
        assert [p[2] for p in points] == pytest.approx([1.0, 0.0, 1.0])
        info = json.loads(_get(f"{base}/graphs/info"))
        assert info["."]["run_graph"] and info["."]["tags"]["train"]["op_graph"]
        run_graph = _get(f"{base}/graphs/graph?run=.").decode()
        traced = _get(f"{base}/graphs/graph?run=.&tag=train&conceptual=false").decode()
        for text in (run_graph, traced):
            assert 'op: "WriteSummary"' in text and "_output_shapes" in text
    finally:
        server.terminate()
        server.wait(timeout=30)
