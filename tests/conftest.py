"""Suite-wide setup: every graph the tests build runs on both executors (the reference
interpreter and the code generator), and any difference fails the test (DESIGN: "The
interpreter is the spec")."""

import os

import pytest

import tracegraph as tf
from tracegraph.execute.crosscheck import set_crosscheck


@pytest.fixture(autouse=True, scope="session")
def _crosscheck_executors():
    executor = os.environ.get("TRACEGRAPH_TEST_EXECUTOR")
    if executor in ("jit", "parallel"):   # fusion / threads on every test graph
        tf.config.force_executor(executor)
    # kernels compile at their first call, so the jit tests run them (background compilation
    # has its own tests: tests/execute/test_jit_background.py; TRACEGRAPH_JIT_BACKGROUND=1
    # keeps it on for the whole suite, whose calls are then mostly answered op by op)
    from tracegraph.execute import jit_build
    if os.environ.get("TRACEGRAPH_JIT_BACKGROUND") != "1":
        jit_build.set_background_compile(False)
    # the cross-check compares executors bit for bit: thread counts must not follow the load
    tf.config.experimental.enable_op_determinism()
    set_crosscheck(True)
    yield
    set_crosscheck(False)


@pytest.fixture(autouse=True)
def _restore_global_settings():
    yield
    tf.config.run_functions_eagerly(False)
    tf.config.optimizer.reset()


@pytest.fixture
def no_optimizer():
    """Runs graphs as traced (for tests about tracing or code generation themselves)."""
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    yield
    tf.config.optimizer.reset()
