"""`tf.random`."""

from ..library.random import (  # noqa: F401
    categorical,
    normal,
    set_seed,
    shuffle,
    truncated_normal,
    uniform,
)
from ..library.random_algorithm import Algorithm  # noqa: F401
from ..library.random_stateless import (  # noqa: F401
    fold_in,
    split,
    stateless_categorical,
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
)
from ..framework.random_generator import (  # noqa: F401
    Generator,
    create_rng_state,
    get_global_generator,
    set_global_generator,
)

import types as _types

# tf.random.experimental
experimental = _types.SimpleNamespace(
    Algorithm=Algorithm, Generator=Generator, create_rng_state=create_rng_state,
    get_global_generator=get_global_generator, set_global_generator=set_global_generator,
    stateless_fold_in=fold_in, stateless_split=split)
