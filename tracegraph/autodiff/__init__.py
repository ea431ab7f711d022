"""Layer 7: automatic differentiation, above `trace/` and below `autograph/`.

- `tape.py`: `tf.GradientTape`; `recording.py`: the context a tape installs while it records;
  `backprop.py`: the reverse walk over recorded ops; `gradients.py`: `tf.gradients`,
  `tf.custom_gradient`; `gradient_check.py`: `tf.test.compute_gradient`.
- `taped_call.py`: a traced function called eagerly under a tape is one tape entry (the trace
  layer asks the current context to apply the call; a tape's context records it).
- `graph_gradient.py`: the gradient of a sub-graph (a called function, a cond branch, a loop
  body) seen from its caller; `forward_values.py` and `loop_values.py`: the forward values it
  reuses (outputs a call or cond gains, values a loop accumulates), as TensorFlow does.
- `registry.py` and `rules/`: every gradient rule, one module per op family, registered with
  `@defgrad("TfOpType")`; `static_shapes.py`: the shape helpers rules share.

Nothing below this package imports it. Importing it registers every rule.
"""

from . import rules  # noqa: F401
