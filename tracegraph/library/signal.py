"""`tf.signal`: the Fourier transforms (fft/ifft/rfft/irfft and their 2-D and 3-D forms,
fftshift), framing (`frame`), windows (`hann_window`, `hamming_window`) and the short-time
Fourier transform (`stft`), as TensorFlow's signal package composes them."""

from __future__ import annotations

import math

import numpy as np

from .. import dtypes as d
from ..ops import spectral as S
from ..ops.registry import bind, convert_to_tensor
from .array import ones, reshape, shape, transpose
from .indexing import gather
from .join_split import concat
from .math import cast, cos, divide, maximum, multiply, range_, square
from .rearrange import pad, roll, tile
from .reduce import reduce_sum
from .segments import unsorted_segment_sum


def _fft(op, rank):
    def transform(input, name=None):  # noqa: A002
        x = convert_to_tensor(input, dtype_hint=d.complex64)
        if x.dtype not in (d.complex64, d.complex128):
            raise TypeError(f"Value passed to parameter 'input' has DataType {x.dtype.name} "
                            f"not in list of allowed values: complex64, complex128")
        return bind(op, (x,), {}, name)
    return transform


fft = _fft(S.fft_op, 1)
ifft = _fft(S.ifft_op, 1)
fft2d = _fft(S.fft2d_op, 2)
ifft2d = _fft(S.ifft2d_op, 2)
fft3d = _fft(S.fft3d_op, 3)
ifft3d = _fft(S.ifft3d_op, 3)


def _inner_dims(x, rank):
    dims = x.shape.as_list()[-rank:] if x.shape.rank is not None else [None] * rank
    if None in dims:
        return None
    return dims


def _pad_to(x, rank, lengths):
    """Zero-pads (never crops) the innermost `rank` axes up to `lengths` (known sizes)."""
    dims = _inner_dims(x, rank)
    if dims is None or lengths is None or 0 in x.shape.as_list():
        return x
    extra = [max(n - m, 0) for n, m in zip(lengths, dims)]
    if not any(extra):
        return x
    return pad(x, [[0, 0]] * (x.shape.rank - rank) + [[0, e] for e in extra])


def _rfft(op, rank):
    def transform(input_tensor, fft_length=None, name=None):
        x = convert_to_tensor(input_tensor, dtype_hint=d.float32)
        if x.dtype not in (d.float32, d.float64):
            raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x!r}")
        if x.shape.rank is not None and x.shape.rank < rank:
            raise ValueError(f"Shape {x.shape} must have rank at least {rank}")
        if fft_length is None:
            dims = _inner_dims(x, rank)
            fft_length = np.asarray(dims, np.int32) if dims is not None else \
                shape(x)[-rank:]
        lengths = _known(fft_length)
        x = _pad_to(x, rank, lengths)
        return bind(op, (x, fft_length), {"Tcomplex": S.COMPLEX_OF[x.dtype]}, name)
    return transform


def _irfft(op, rank):
    def transform(input_tensor, fft_length=None, name=None):
        x = convert_to_tensor(input_tensor, dtype_hint=d.complex64)
        if x.dtype not in (d.complex64, d.complex128):
            raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: "
                             f"{x!r}")
        if fft_length is None:
            dims = _inner_dims(x, rank)
            if dims is None:
                inner = shape(x)[-rank:]
                last = inner[-1]
                fft_length = concat([inner[:-1], [maximum(0, 2 * (last - 1))]], 0)
            else:
                fft_length = np.asarray(dims[:-1] + [max(0, 2 * (dims[-1] - 1))], np.int32)
        lengths = _known(fft_length)
        if lengths is not None:
            x = _pad_to(x, rank, list(lengths[:-1]) + [lengths[-1] // 2 + 1])
        return bind(op, (x, fft_length), {"Treal": S.REAL_OF[x.dtype]}, name)
    return transform


def _known(fft_length):
    value = getattr(fft_length, "known_value", fft_length)
    if value is None or type(value).__module__.startswith("tracegraph"):
        return None
    return [int(v) for v in np.asarray(value).reshape(-1)]


rfft = _rfft(S.rfft_op, 1)
irfft = _irfft(S.irfft_op, 1)
rfft2d = _rfft(S.rfft2d_op, 2)
irfft2d = _irfft(S.irfft2d_op, 2)
rfft3d = _rfft(S.rfft3d_op, 3)
irfft3d = _irfft(S.irfft3d_op, 3)


def _shift(x, axes, sign):
    x = convert_to_tensor(x)
    if axes is None:
        axes = list(range(x.shape.rank))
    elif isinstance(axes, int):
        axes = [axes]
    shifts = [sign * (x.shape[a] // 2) if sign > 0 else -(x.shape[a] // 2) for a in axes]
    return roll(x, shifts, axes)


def fftshift(x, axes=None, name=None):
    """Moves the zero-frequency term to the centre (n // 2)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift."""
    return _shift(x, axes, -1)


# ---- framing, windows, stft ----------------------------------------------------------------------

def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Overlapping frames of `frame_length` every `frame_step` samples along `axis`."""
    signal = convert_to_tensor(signal)
    rank = signal.shape.rank
    if rank is None:
        raise ValueError("frame needs a signal of known rank")
    if rank == 0:
        raise ValueError(f"Shape {signal.shape} must have rank at least 1")
    axis = axis % rank
    frame_length, frame_step = int(frame_length), int(frame_step)
    length = signal.shape[axis]
    if length is None:
        raise ValueError("frame needs the length of the framed axis to be known; give the "
                         "signal a static shape (tf.ensure_shape)")
    if pad_end:
        frames = -(-length // frame_step)
        needed = max((frames - 1) * frame_step + frame_length - length, 0)
        if needed:
            paddings = [[0, 0]] * rank
            paddings[axis] = [0, needed]
            signal = pad(signal, paddings, constant_values=pad_value)
    else:
        frames = max(0, 1 + (length - frame_length) // frame_step)
    index = (np.arange(frames)[:, None] * frame_step + np.arange(frame_length)[None, :])
    return gather(signal, index.astype(np.int32), axis=axis, name=name)


def _raised_cosine(window_length, periodic, dtype, a, b):
    dtype = d.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    n = int(window_length)
    if n == 1:
        return ones([1], dtype=dtype)
    even = 1 - n % 2
    denominator = n + int(bool(periodic)) * even - 1
    count = cast(range_(n), dtype)
    arg = multiply(convert_to_tensor(2 * math.pi, dtype=dtype), count) / cast(denominator, dtype)
    return cast(a - b * cos(arg), dtype)


def hann_window(window_length, periodic=True, dtype=d.float32, name=None):
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=d.float32, name=None):
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """Short-time Fourier transform: rfft of windowed frames, [..., frames, fft_length//2+1]."""
    signals = convert_to_tensor(signals)
    if fft_length is None:
        fft_length = 1 << (int(frame_length) - 1).bit_length()
    framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = multiply(framed, window_fn(frame_length, dtype=framed.dtype))
    return rfft(framed, [int(fft_length)])


def overlap_and_add(signal, frame_step, name=None):
    """Sums frames `[..., frames, frame_length]` placed every `frame_step` samples."""
    signal = convert_to_tensor(signal)
    rank = signal.shape.rank
    if rank is None or rank < 2:
        raise ValueError(f"Shape {signal.shape} must have rank at least 2")
    frames, frame_length = signal.shape[-2], signal.shape[-1]
    if frames is None or frame_length is None:
        raise ValueError("overlap_and_add needs the number and length of frames to be known")
    frame_step = int(frame_step)
    length = (frames - 1) * frame_step + frame_length if frames else 0
    perm = [rank - 2, rank - 1] + list(range(rank - 2))
    rows = reshape(transpose(signal, perm), concat([[frames * frame_length], shape(signal)[:-2]],
                                                   0))
    ids = (np.arange(frames)[:, None] * frame_step + np.arange(frame_length)[None, :])
    summed = unsorted_segment_sum(rows, ids.reshape(-1).astype(np.int32), length)
    back = list(range(1, rank - 1)) + [0]
    return transpose(summed, back, name=name or "transpose")


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """The signal whose stft is `stfts`: irfft of each frame, windowed, overlapped and added."""
    stfts = convert_to_tensor(stfts)
    frame_length = int(frame_length)
    if fft_length is None:
        fft_length = 1 << (frame_length - 1).bit_length()
    frames = irfft(stfts, [int(fft_length)])
    if int(fft_length) > frame_length:
        frames = frames[..., :frame_length]
    elif int(fft_length) < frame_length:
        rank = frames.shape.rank
        frames = pad(frames, [[0, 0]] * (rank - 1) + [[0, frame_length - int(fft_length)]])
    if window_fn is not None:
        frames = multiply(frames, window_fn(frame_length, dtype=frames.dtype))
    return overlap_and_add(frames, frame_step)


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """The window that makes inverse_stft invert stft with `forward_window_fn`."""
    def window(frame_length, dtype):
        forward = forward_window_fn(frame_length, dtype=dtype)
        overlaps = -(-frame_length // frame_step)
        denominator = pad(square(forward), [[0, overlaps * frame_step - frame_length]])
        denominator = reduce_sum(reshape(denominator, [overlaps, frame_step]), 0, keepdims=True)
        denominator = reshape(tile(denominator, [overlaps, 1]), [overlaps * frame_step])
        return divide(forward, denominator[:frame_length])
    return window


def kaiser_window(window_length, beta=12.0, dtype=d.float32, name=None):
    """I0(beta * sqrt(1 - (2n / (N - 1) - 1)^2)) / I0(beta), from the window's known length."""
    dtype = d.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    n = int(window_length)
    if n == 1:
        return ones([1], dtype=dtype)
    half = (np.float32(n) - 1) / np.float32(2)
    arg = np.arange(-half, half + np.float32(0.1), dtype=np.float32).astype(np.float64)
    num = float(beta) * np.sqrt(np.maximum(1 - np.square(arg / float(half)), 0))
    return convert_to_tensor(np.i0(num) / np.i0(float(beta)), dtype=dtype)
