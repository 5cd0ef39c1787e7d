"""The safetensors file format (the ``safetensors`` package's numpy API, no torch): checked reading, atomic writing.

``read_tensors`` returns the named tensors as float64 after checking each one's dtype (by the
file's header, before loading: a bfloat16 or float16 tensor is refused naming it, never loaded),
shape and finiteness; ``write_pair`` writes a weights file and its JSON config together, atomically
(temporary files renamed into place: nothing is left on error).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

#: The dtypes read (safetensors' names): float32 and float64.  Anything else is refused naming the tensor.
READ_DTYPES: dict[str, type] = {"F32": np.float32, "F64": np.float64}


def tensor_names(path: str | os.PathLike[str]) -> set[str]:
    """Return the names of the tensors in a safetensors file (ValueError if it is not one)."""
    from safetensors import SafetensorError, safe_open

    p = Path(path)
    if not p.is_file():
        raise ValueError(f"cannot read weights {p}: no such file")
    try:
        with safe_open(str(p), framework="np") as f:
            return set(f.keys())
    except SafetensorError as e:
        raise ValueError(f"cannot read weights {p}: not a safetensors file ({e})") from None
    except OSError as e:
        raise ValueError(f"cannot read weights {p}: {e.strerror}") from None


def read_tensors(path: str | os.PathLike[str], wanted: Iterable[tuple[str, tuple[int, ...], str]]) -> tuple[dict[str, np.ndarray], bool]:
    """Return (the wanted tensors as float64, whether any was float32); wanted is (name, shape, shape in words).

    ValueError naming the tensor when one is missing, of a dtype other than float32/float64 (read
    from the header, so e.g. bfloat16 is refused, never loaded), of another shape, or not finite.
    """
    from safetensors import SafetensorError, safe_open

    p = Path(path)
    if not p.is_file():
        raise ValueError(f"cannot read weights {p}: no such file")
    out: dict[str, np.ndarray] = {}
    f32 = False
    try:
        with safe_open(str(p), framework="np") as f:
            names = set(f.keys())
            for name, shape, words in wanted:
                if name not in names:
                    raise ValueError(f"tensor {name} is missing from {p.name}")
                sl = f.get_slice(name)
                dtype = sl.get_dtype()
                if dtype not in READ_DTYPES:
                    raise ValueError(f"tensor {name} has dtype {dtype}: only float32 (F32) and float64 (F64) are read")
                got = tuple(int(s) for s in sl.get_shape())
                if got != shape:
                    raise ValueError(f"tensor {name} has shape {'x'.join(map(str, got)) or 'scalar'}, expected {'x'.join(map(str, shape))} ({words})")
                a = f.get_tensor(name)
                if not np.isfinite(a).all():
                    raise ValueError(f"tensor {name} contains NaN or infinite entries")
                f32 = f32 or a.dtype == np.float32
                out[name] = a.astype(np.float64)
    except SafetensorError as e:
        raise ValueError(f"cannot read weights {p}: not a safetensors file ({e})") from None
    except OSError as e:
        raise ValueError(f"cannot read weights {p}: {e.strerror}") from None
    return out, f32


def write_pair(out_dir: Path, name: str, tensors: dict[str, np.ndarray], config: dict[str, Any]) -> tuple[Path, Path]:
    """Write NAME.safetensors (float64) and NAME.config.json atomically (temporary files renamed into place; nothing on error)."""
    from safetensors.numpy import save_file

    if not out_dir.is_dir():
        raise ValueError(f"output directory {out_dir} does not exist")
    st, cj = out_dir / f"{name}.safetensors", out_dir / f"{name}.config.json"
    tmps: list[str] = []
    try:
        fd, t1 = tempfile.mkstemp(dir=out_dir, prefix=".tmp-", suffix=".safetensors")
        os.close(fd)
        tmps.append(t1)
        save_file({k: np.ascontiguousarray(v, dtype=np.float64) for k, v in tensors.items()}, t1)
        fd, t2 = tempfile.mkstemp(dir=out_dir, prefix=".tmp-", suffix=".json")
        tmps.append(t2)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(config, f, indent=1)
        os.replace(t1, st)
        os.replace(t2, cj)
    except OSError as e:
        raise ValueError(f"cannot write to {out_dir}: {e.strerror}") from None
    finally:
        for t in tmps:
            Path(t).unlink(missing_ok=True)
    return st, cj
