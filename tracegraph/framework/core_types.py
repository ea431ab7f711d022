"""The abstract types TensorFlow checks with `isinstance` (`tf.__internal__.types.Tensor`,
`tf.__internal__.CompositeTensor`) and `tf.is_tensor`.

`Tensor` here is TF's `tensorflow.python.types.core.Tensor`: the base of `tf.Tensor` and
`tf.Variable`, and of any class that wants ops to take it (Keras's variables derive from it and
give their value through `__tf_tensor__`). `CompositeTensor` is the base of values made of
several tensors (`tf.SparseTensor`, `tf.RaggedTensor`, `tf.IndexedSlices`).
"""

from __future__ import annotations

__all__ = ["Tensor", "CompositeTensor", "is_tensor"]


class Tensor:
    """The type every tensor-like value derives from (TF's `types.core.Tensor`)."""

    __slots__ = ()


# Keras recognises TensorFlow's values by class name and module (`is_tensorflow_tensor`: a class
# named Tensor in the MRO from a `tensorflow.python.` module; `SparseTensor` and `RaggedTensor`
# the same): these classes carry TensorFlow's module names for it. Instances pickle through
# module-level functions of tracegraph (`__reduce__`), never by these names.
TF_MODULES = {
    "Tensor": "tensorflow.python.types.core",
    "CompositeTensor": "tensorflow.python.framework.composite_tensor",
    "SparseTensor": "tensorflow.python.framework.sparse_tensor",
    "RaggedTensor": "tensorflow.python.ops.ragged.ragged_tensor",
    "DatasetV2": "tensorflow.python.data.ops.dataset_ops",   # Keras's `is_tf_dataset`
}
Tensor.__module__ = TF_MODULES["Tensor"]


class CompositeTensor:
    """A value made of several tensors (TF's `composite_tensor.CompositeTensor`)."""

    __slots__ = ()


CompositeTensor.__module__ = TF_MODULES["CompositeTensor"]


def is_tensor(x) -> bool:
    """`tf.is_tensor`: a tensor, a Variable, a composite tensor (sparse, ragged, indexed
    slices), an instance of a class deriving `tf.__internal__.types.Tensor`, or an object that
    says `is_tensor_like`; NumPy arrays and Python values are not."""
    return isinstance(x, (Tensor, CompositeTensor)) or getattr(x, "is_tensor_like", False)
