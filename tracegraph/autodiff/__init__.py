"""Layer 7: automatic differentiation, above `trace/` and below `autograph/`.

- `tape.py`: `tf.GradientTape`, a recording context on the context stack; `backprop.py`: the
  reverse walk over recorded ops; `gradients.py`: `tf.gradients`, `tf.custom_gradient`;
  `gradient_check.py`: `tf.test.compute_gradient`.
- `taped_call.py`: a traced function called eagerly under a tape is one tape entry (the trace
  layer asks the current context to apply the call; a tape's context records it).
- `registry.py` and `rules/`: every gradient rule, one module per op family, registered with
  `@defgrad("TfOpType")`.

Nothing below this package imports it. Importing it registers every rule.
"""

from . import rules  # noqa: F401
