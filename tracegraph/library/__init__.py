"""Layer 3: the TensorFlow-style functions (`tf.reshape`, `tf.norm`, losses, asserts...), one
module per op family, built from the op records in `ops/` through `bind`.

`ops/` holds only the records (type inference and kernels); every function a user calls lives
here and is re-exported by `api/` and the top-level namespace. Inside this package the modules
import each other in one order, without a circle: math < array < rearrange < reduce < indexing <
the rest (linalg, logging, random, slicing, strings) < nn.
"""
