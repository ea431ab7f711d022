"""The index keys of a sliced tensor's pieces (TensorFlow's `EncodeTensorNameSlice`).

A slice of tensor `name` is stored under a key that sorts before every plain name (it starts
with a zero byte) and orders slices of one tensor together, in TensorFlow's "ordered code":

    num(0) string(name) num(rank) then, per dimension, signed(start) signed(length)

- num(n): one byte holding the count of big-endian bytes of n that follow (0 has none);
- string(s): s with 0x00 written 0x00 0xFF and 0xFF written 0xFF 0x00, ended by 0x00 0x01;
- signed(v): v < 64 in magnitude is the single byte 0x80 ^ v (as a two's complement byte);
  longer values are big-endian and sign extended to L bytes whose first L bits (and, for
  L > 8, the bits after the first byte) carry the length as a run of ones, where an L-byte
  code holds 7L - 1 bits of magnitude. A whole dimension is start 0, length -1.
"""

from __future__ import annotations

__all__ = ["slice_key"]

# (first, second) header bits of an L-byte signed code, L = 0 .. 10
_LENGTH_BITS = ((0, 0), (0x80, 0), (0xC0, 0), (0xE0, 0), (0xF0, 0), (0xF8, 0), (0xFC, 0),
                (0xFE, 0), (0xFF, 0), (0xFF, 0x80), (0xFF, 0xC0))


def _num(value: int) -> bytes:
    body = value.to_bytes(max(1, (value.bit_length() + 7) // 8), "big") if value else b""
    return bytes([len(body)]) + body


def _string(text: bytes) -> bytes:
    return text.replace(b"\xff", b"\xff\x00").replace(b"\x00", b"\x00\xff") + b"\x00\x01"


def _signed(value: int) -> bytes:
    magnitude = ~value if value < 0 else value
    if magnitude < 64:
        return bytes([(0x80 ^ value) & 0xFF])
    length = (magnitude.bit_length() + 7) // 7
    code = bytearray((value & ((1 << (8 * length)) - 1)).to_bytes(length, "big"))
    code[0] ^= _LENGTH_BITS[length][0]
    code[1] ^= _LENGTH_BITS[length][1]
    return bytes(code)


def slice_key(name: str, tensor_slice) -> bytes:
    """The key of one slice (a TensorSliceProto) of the tensor `name`."""
    out = bytearray(_num(0) + _string(name.encode("utf-8")) + _num(len(tensor_slice.extent)))
    for extent in tensor_slice.extent:
        if extent.HasField("length"):
            out += _signed(extent.start) + _signed(extent.length)
        else:
            out += _signed(0) + _signed(-1)
    return bytes(out)
