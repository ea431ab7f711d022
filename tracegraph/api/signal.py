"""`tf.signal`."""

from ..library.signal import (  # noqa: F401
    fft,
    fft2d,
    fft3d,
    fftshift,
    frame,
    hamming_window,
    hann_window,
    ifft,
    ifft2d,
    ifft3d,
    ifftshift,
    irfft,
    irfft2d,
    irfft3d,
    rfft,
    rfft2d,
    rfft3d,
    stft,
)
