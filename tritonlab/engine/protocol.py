"""The wire format between client and worker: one JSON object per line.

client → worker: {"id": 7, "op": "verify", "args": {...}, "capture": "/path/out-7.txt"}
worker → client: {"id": 7, "event": "progress", "message": "case 3/12"}   (zero or more)
                 {"id": 7, "result": {...}}                               (exactly one)
"""

from __future__ import annotations

import json
import math

from tritonlab.engine.results import ERROR_KINDS  # one list of kinds, in results.Kind

__all__ = ["ERROR_KINDS", "decode", "encode", "error"]


def _clean(value):
    """JSON has no NaN/inf: encode them as strings so every result stays parseable."""
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def encode(message: dict) -> bytes:
    return (json.dumps(_clean(message), ensure_ascii=False, allow_nan=False, default=str) + "\n").encode(
        "utf-8"
    )


def decode(line: bytes) -> dict:
    message = json.loads(line.decode("utf-8"))
    if not isinstance(message, dict):
        raise ValueError("protocol message is not an object")
    return message


def error(kind: str, message: str, line: int | None = None, **extra) -> dict:
    err = {"kind": kind, "message": message, "line": line}
    err.update(extra)
    return err
