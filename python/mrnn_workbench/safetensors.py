"""A reader and writer of the safetensors format, with torch alone.

Layout: an 8-byte little-endian unsigned header length N; N bytes of JSON mapping each
tensor's name to {"dtype", "shape", "data_offsets": [begin, end]} (offsets into the data that
follows the header) and optionally "__metadata__": {string: string}; then the raw data,
little-endian, row-major.
"""

import ctypes
import json
import struct
import sys
from typing import Dict, Optional, Tuple

import torch

_DTYPES = {
    "F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
    "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8,
    "U8": torch.uint8, "BOOL": torch.bool,
}
_NAMES = {dtype: name for name, dtype in _DTYPES.items()}
_MAX_HEADER = 100 * 1024 * 1024


class SafetensorsError(ValueError):
    """A file that is not valid safetensors; the message names the file and what is wrong."""


def _require_little_endian():
    if sys.byteorder != "little":
        raise NotImplementedError("safetensors files are little-endian; this machine is not")


def read_safetensors(path: str) -> Tuple[Dict[str, torch.Tensor], Dict[str, str]]:
    """The tensors of a safetensors file (CPU, in the file's order) and its __metadata__."""
    _require_little_endian()
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise SafetensorsError(f"{path}: {len(blob)} bytes, too short for a safetensors header")
    (size,) = struct.unpack("<Q", blob[:8])
    if size > min(_MAX_HEADER, len(blob) - 8):
        raise SafetensorsError(f"{path}: header length {size} runs past the file "
                               f"({len(blob)} bytes)")
    try:
        header = json.loads(blob[8:8 + size].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SafetensorsError(f"{path}: the header is not JSON ({error})") from None
    if not isinstance(header, dict):
        raise SafetensorsError(f"{path}: the header is not a JSON object")
    data = memoryview(blob)[8 + size:]
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise SafetensorsError(f"{path}: __metadata__ must map strings to strings")
    tensors = {}
    for name, info in header.items():
        try:
            dtype = _DTYPES[info["dtype"]]
            shape = [int(n) for n in info["shape"]]
            begin, end = (int(n) for n in info["data_offsets"])
        except (KeyError, TypeError, ValueError):
            raise SafetensorsError(f"{path}: tensor {name!r} has no valid dtype, shape and "
                                   f"data_offsets: {info!r}") from None
        count = 1
        for n in shape:
            count *= n
        item = torch.empty(0, dtype=dtype).element_size()
        if not 0 <= begin <= end <= len(data) or end - begin != count * item:
            raise SafetensorsError(f"{path}: tensor {name!r} ({info['dtype']} {shape}) has "
                                   f"data_offsets [{begin}, {end}] in {len(data)} bytes of data")
        if count == 0:
            tensors[name] = torch.empty(shape, dtype=dtype)
        else:
            raw = bytearray(data[begin:end])
            tensors[name] = torch.frombuffer(raw, dtype=dtype).reshape(shape)
    return tensors, dict(metadata)


def write_safetensors(path: str, tensors: Dict[str, torch.Tensor],
                      metadata: Optional[Dict[str, str]] = None) -> None:
    """Writes `tensors` (any device; written from CPU copies) and string `metadata`."""
    _require_little_endian()
    header = {}
    chunks = []
    offset = 0
    for name, tensor in tensors.items():
        tensor = tensor.detach().cpu().contiguous()
        if tensor.dtype not in _NAMES:
            raise SafetensorsError(f"tensor {name!r}: dtype {tensor.dtype} has no safetensors name")
        raw = ctypes.string_at(tensor.data_ptr(), tensor.numel() * tensor.element_size()) \
            if tensor.numel() else b""
        header[name] = {"dtype": _NAMES[tensor.dtype], "shape": list(tensor.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    if metadata:
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise SafetensorsError("__metadata__ must map strings to strings")
        header = {"__metadata__": dict(metadata), **header}
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for chunk in chunks:
            f.write(chunk)
