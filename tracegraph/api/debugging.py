"""`tf.debugging`."""

from ..library.logging import (  # noqa: F401
    ASSERTS,
    Assert,
    assert_all_finite,
    assert_rank,
    assert_type,
    check_numerics,  # noqa: F401
)

assert_equal = ASSERTS["assert_equal"]
assert_none_equal = ASSERTS["assert_none_equal"]
assert_less = ASSERTS["assert_less"]
assert_less_equal = ASSERTS["assert_less_equal"]
assert_greater = ASSERTS["assert_greater"]
assert_greater_equal = ASSERTS["assert_greater_equal"]
assert_positive = ASSERTS["assert_positive"]
assert_negative = ASSERTS["assert_negative"]
assert_non_negative = ASSERTS["assert_non_negative"]
assert_non_positive = ASSERTS["assert_non_positive"]

from ..framework.eager import set_log_device_placement  # noqa: E402, F401
