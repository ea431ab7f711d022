"""TensorFlow's logger (`tf.get_logger()`, `tf.compat.v1.logging`) and its deprecation notices.

The logger is Python's `logging.getLogger("tensorflow")`, set up as TensorFlow sets it up: unless
the root logger already has handlers, one handler writing `LEVEL:tensorflow:message` to stderr
(stdout and level INFO in an interactive session). Deprecation notices go through it, once per
deprecated name, naming the caller's line, so `set_verbosity(ERROR)` silences them as in TF.
"""

from __future__ import annotations

import logging
import os
import sys
import threading

__all__ = ["get_logger", "deprecation_notice", "user_frame", "DEBUG", "INFO", "WARN", "ERROR",
           "FATAL",
           "log", "debug", "info", "warning", "error", "fatal", "vlog", "log_if",
           "log_first_n", "log_every_n", "get_verbosity", "set_verbosity", "flush"]

DEBUG, INFO, WARN, ERROR, FATAL = (logging.DEBUG, logging.INFO, logging.WARN, logging.ERROR,
                                   logging.FATAL)

_logger: logging.Logger | None = None
_lock = threading.Lock()
_noticed: set[str] = set()


def get_logger() -> logging.Logger:
    """`tf.get_logger()`: the "tensorflow" logger, configured on first use as TensorFlow's."""
    global _logger
    if _logger is not None:
        return _logger
    with _lock:
        if _logger is None:
            logger = logging.getLogger("tensorflow")
            if not logging.getLogger().handlers:
                interactive = hasattr(sys, "ps1") or bool(sys.flags.interactive)
                if interactive:
                    logger.setLevel(INFO)
                handler = logging.StreamHandler(sys.stdout if interactive else sys.stderr)
                handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT, None))
                logger.addHandler(handler)
            _logger = logger
    return _logger


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def user_frame():
    """The innermost frame outside tracegraph's package (the user's call)."""
    frame = sys._getframe(1)
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    return frame


def deprecation_notice(name: str, module: str, instructions: str, frame,
                       removal: str = "in a future version") -> None:
    """TensorFlow's warning for a deprecated `name` (defined in TF's `module`), the first time
    it is called, naming the caller's `frame`."""
    if name in _noticed:
        return
    _noticed.add(name)
    get_logger().warning(
        "From %s:%d: %s (from %s) is deprecated and will be removed %s.\n"
        "Instructions for updating:\n%s", frame.f_code.co_filename, frame.f_lineno, name,
        module, removal, instructions)


# ---- tf.compat.v1.logging ---------------------------------------------------------------------

def log(level, msg, *args, **kwargs):
    get_logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    get_logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    get_logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    get_logger().warning(msg, *args, **kwargs)


def error(msg, *args, **kwargs):
    get_logger().error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    get_logger().fatal(msg, *args, **kwargs)


def vlog(level, msg, *args, **kwargs):
    get_logger().log(level, msg, *args, **kwargs)


def log_if(level, msg, condition, *args):
    if condition:
        log(level, msg, *args)


_counts: dict = {}


def _count(frame) -> int:
    key = (frame.f_code.co_filename, frame.f_lineno)
    _counts[key] = _counts.get(key, 0) + 1
    return _counts[key]


def log_first_n(level, msg, n, *args):
    """Logs `msg` the first `n` times this line calls it."""
    if _count(sys._getframe(1)) <= n:
        log(level, msg, *args)


def log_every_n(level, msg, n, *args):
    """Logs `msg` on this line's 1st call, then every `n` calls."""
    if (_count(sys._getframe(1)) - 1) % n == 0:
        log(level, msg, *args)


def get_verbosity() -> int:
    return get_logger().getEffectiveLevel()


def set_verbosity(v) -> None:
    get_logger().setLevel(v)


def flush() -> None:
    for handler in get_logger().handlers:
        handler.flush()
