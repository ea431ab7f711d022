"""Busy processes beside a benchmark: what a shared server, a CI runner or a notebook next to a
browser looks like to a library that uses every core.

`Busy(n, seconds)` starts `n` Python processes that spin on the CPU and end by themselves after
`seconds` (and when this process dies: they ask the kernel for SIGKILL on their parent's
death), and stops them when its `with` block ends, whatever happens in it.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys

_SPIN = """
import ctypes, signal, time
try:
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG: die with the benchmark
except Exception:
    pass
end = time.monotonic() + {seconds}
while time.monotonic() < end:
    pass
"""


class Busy:
    """`with Busy(2, 600):` two spinning processes for at most 600 s, stopped on exit."""

    def __init__(self, n: int, seconds: float = 600.0):
        self.n = n
        self.seconds = seconds
        self.procs: list[subprocess.Popen] = []

    def __enter__(self):
        code = _SPIN.format(seconds=float(self.seconds))
        self.procs = [subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                      for _ in range(self.n)]
        atexit.register(self.stop)
        return self

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=2)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs = []

    def __exit__(self, *exc):
        self.stop()
        atexit.unregister(self.stop)


def load() -> str:
    """The load averages, as `uptime` prints them."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "load average: unknown"
    return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"
