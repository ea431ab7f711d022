"""NumPy forms of the special functions behind the special-function records (`special.py`):
log-gamma, digamma, Hurwitz zeta, polygamma, the inverse normal CDF and the inverse error
function, each on float64 arrays, with TensorFlow 2.21's values at poles and out of domain.

Digamma and zeta follow the Cephes algorithms Eigen (TensorFlow's kernels) uses: recurrence to
x >= 10 then the asymptotic series for digamma; Euler-Maclaurin summation for zeta. The
inverse normal CDF starts from Acklam's rational approximation (relative error 1.2e-9) and
takes one Halley step on erfc, which brings it to double precision; erfinv(x) is
ndtri((x + 1) / 2) / sqrt(2) with (x + 1) / 2 rounded in the input's dtype, as Eigen computes
it (so float32 erfinv(1e-8) is 0, as in TensorFlow).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["lgamma", "digamma", "zeta", "polygamma", "ndtri", "erfinv"]

_EPS = np.finfo(np.float64).eps

# Bernoulli numbers B_2 .. B_24
_BERNOULLI = [Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30),
              Fraction(5, 66), Fraction(-691, 2730), Fraction(7, 6), Fraction(-3617, 510),
              Fraction(43867, 798), Fraction(-174611, 330), Fraction(854513, 138),
              Fraction(-236364091, 2730)]
# Euler-Maclaurin's coefficients for zeta: (2k)! / B_2k
_ZETA_A = [float(math.factorial(2 * k) / b) for k, b in enumerate(_BERNOULLI, 1)]
# digamma's asymptotic series: B_2k / (2k), k = 1..7
_PSI_SERIES = [float(b / (2 * k)) for k, b in enumerate(_BERNOULLI[:7], 1)]


def _vectorized(fn, x: np.ndarray) -> np.ndarray:
    return np.vectorize(fn, otypes=[np.float64])(x) if x.size else x.astype(np.float64)


def _lgamma_one(v: float) -> float:
    if math.isnan(v):
        return v
    try:
        return math.lgamma(v)
    except (ValueError, OverflowError):   # a pole (0, -1, -2, ...) or overflow
        return math.inf


_EULER = 0.57721566490153286


def _lgamma_near_one(z: np.ndarray) -> np.ndarray:
    """lgamma(1 + z) for |z| <= 0.25 from its Taylor series (-gamma z + sum (-1)^k zeta(k)
    z^k / k): accurate relative to the small result near the roots x = 1 and x = 2, where
    Python's lgamma is not."""
    out = np.zeros_like(z)
    power = z.copy()
    for k in range(2, 40):
        power = power * z
        out = out + ((-1) ** k) * _ZETA_INT[k] * power / k
    return out - _EULER * z


def lgamma(x: np.ndarray) -> np.ndarray:
    """log|Gamma(x)|: +inf at the poles and at +-inf (the C library's values)."""
    x = np.asarray(x, np.float64)
    out = _vectorized(_lgamma_one, x)
    near1, near2 = np.abs(x - 1) <= 0.25, np.abs(x - 2) <= 0.25
    if near1.any():
        out[near1] = _lgamma_near_one(x[near1] - 1)
    if near2.any():
        z = x[near2] - 2
        out[near2] = _lgamma_near_one(z) + np.log1p(z)
    return out


def digamma(x: np.ndarray) -> np.ndarray:
    """psi(x) = Gamma'(x)/Gamma(x): NaN at the poles (0, -1, ...) and at -inf."""
    x = np.asarray(x, np.float64)
    out = np.empty_like(x)
    with np.errstate(all="ignore"):
        negative = x <= 0
        floor = np.floor(x)
        pole = negative & (floor == x)
        # reflection for x <= 0: psi(x) = psi(1 - x) - pi / tan(pi x), with x moved to the
        # nearest integer's distance first (the zeros of tan)
        frac = x - floor
        near = np.where(frac > 0.5, x - (floor + 1), frac)
        shift = np.where(frac == 0.5, 0.0, np.pi / np.tan(np.pi * near))
        s = np.where(negative, 1 - x, x)
        w = np.zeros_like(s)
        for _ in range(10):   # recurrence psi(s) = psi(s + 1) - 1/s up to s >= 10
            small = s < 10
            w = np.where(small, w + 1 / s, w)
            s = np.where(small, s + 1, s)
        z = 1 / (s * s)
        series = np.zeros_like(s)
        for c in reversed(_PSI_SERIES):
            series = series * z + c
        series = np.where(s < 1e17, series * z, 0.0)
        y = np.log(s) - 0.5 / s - series - w
        out[...] = np.where(negative, y - shift, y)
        out[pole | np.isnan(x)] = np.nan
    return out


def zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The Hurwitz zeta function sum_k (k + q)^-x (Cephes, as Eigen has it): inf at x == 1;
    at q a non-positive integer, inf for x an even integer and NaN otherwise; NaN for x < 1 and
    for q < 0 with x not an integer."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    x, q = x.astype(np.float64), q.astype(np.float64)
    with np.errstate(all="ignore"):
        pole = (q <= 0) & (q == np.floor(q))
        even = (x == np.floor(x)) & (np.fmod(x, 2) == 0)
        inf = (x == 1) | (pole & even)
        nan = np.isnan(x) | np.isnan(q) | (x < 1) | ((q <= 0) & (x != np.floor(x))) | pole
        nan &= ~inf
        big = q > 1e8
        qq = np.where(inf | nan | big, 1.0, q)
        s = qq ** -x
        a = qq.copy()
        b = np.zeros_like(s)
        done = np.zeros(s.shape, bool)
        count = 0
        limit = max(9, int(np.ceil(9 - qq.min()))) if qq.size else 9
        while count < limit + 1:   # at least 9 terms and a > 9
            count += 1
            active = ~done & ((count <= 9) | (a <= 9))
            if not active.any():
                break
            a = np.where(active, a + 1, a)
            b = np.where(active, a ** -x, b)
            s = np.where(active, s + b, s)
            done |= active & (np.abs(b / s) < _EPS)
        tail = ~done
        w = a
        s = np.where(tail, s + b * w / (x - 1) - 0.5 * b, s)
        fact, k, term_b = np.ones_like(s), 0.0, b.copy()
        for coeff in _ZETA_A:
            fact = fact * (x + k)
            term_b = term_b / w
            t = fact * term_b / coeff
            s = np.where(tail, s + t, s)
            tail &= ~(np.abs(t / s) < _EPS)
            k += 1.0
            fact = fact * (x + k)
            term_b = term_b / w
            k += 1.0
        asymptotic = (1 / (x - 1) + 1 / (2 * q)) * q ** (1 - x)
        out = np.where(big, asymptotic, s)
        out = np.where(inf, np.inf, out)
        out = np.where(nan, np.nan, out)
    return out


# zeta(k) for k = 0..39 (lgamma's series near 1)
_ZETA_INT = [np.nan, np.inf] + zeta(np.arange(2.0, 40.0), np.ones(38)).tolist()


def polygamma(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The n-th derivative of digamma: digamma for n == 0, (-1)^(n+1) n! zeta(n + 1, x) for
    positive integers n, NaN for others."""
    n, x = np.broadcast_arrays(np.asarray(n, np.float64), np.asarray(x, np.float64))
    with np.errstate(all="ignore"):
        valid = (n >= 0) & (n == np.floor(n))
        order = np.where(valid, n, 1.0)
        factorial = np.exp(lgamma(order + 1))
        sign = np.where(np.fmod(order + 1, 2) == 0, 1.0, -1.0)
        higher = sign * factorial * zeta(order + 1, x)
        out = np.where(order == 0, digamma(x), higher)
    return np.where(valid, out, np.nan)


# Acklam's rational approximation of the inverse normal CDF
_A = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
      1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
_B = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
      6.680131188771972e+01, -1.328068155288572e+01)
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
      -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
      3.754408661907416e+00)
_LOW = 0.02425


def _poly(coeffs, v):
    out = np.zeros_like(v)
    for c in coeffs:
        out = out * v + c
    return out


def _ndtri_lower(p: np.ndarray) -> np.ndarray:
    """ndtri for 0 < p <= 0.5, where p is exact (the upper half comes by symmetry)."""
    with np.errstate(all="ignore"):
        tail = np.sqrt(-2 * np.log(p))
        x_tail = _poly(_C, tail) / (_poly(_D, tail) * tail + 1)
        q = p - 0.5
        r = q * q
        x_mid = _poly(_A, r) * q / (_poly(_B, r) * r + 1)
        x = np.where(p < _LOW, x_tail, x_mid)
        # one Halley step on erfc: the lower tail's CDF is accurate, no cancellation
        cdf = 0.5 * _vectorized(math.erfc, -x / np.sqrt(2))
        e = cdf - p
        u = e * np.sqrt(2 * np.pi) * np.exp(x * x / 2)
        return x - u / (1 + x * u / 2)


def ndtri(p: np.ndarray) -> np.ndarray:
    """The inverse of the standard normal CDF: -inf at 0, +inf at 1, NaN outside [0, 1]."""
    p = np.asarray(p, np.float64)
    out = np.full(p.shape, np.nan)
    inside = (p > 0) & (p < 1)
    if inside.any():
        v = p[inside]
        upper = v > 0.5
        low = np.where(upper, 1 - v, v)   # exact for v >= 0.5 (Sterbenz)
        x = _ndtri_lower(low)
        out[inside] = np.where(upper, -x, x)
    out[p == 0] = -np.inf
    out[p == 1] = np.inf
    return out


def erfinv(x: np.ndarray) -> np.ndarray:
    """The inverse error function: ndtri((x + 1) / 2) / sqrt(2), (x + 1) / 2 rounded in x's
    dtype; +-inf at +-1, NaN outside [-1, 1]."""
    x = np.asarray(x)
    half = ((x + x.dtype.type(1)) / x.dtype.type(2)).astype(np.float64)
    return ndtri(half) / np.sqrt(2)
