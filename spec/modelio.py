"""The model file format (docs/model-format.md): JSON, versions "hardsoft-model/1" to "/5".

Version 2 adds a per-head ``"hard_mode"``, an output ``"readout"``
({"coordinate", "position", "threshold"}) and the position features of
``spec.transformer.PE_FEATURES`` beyond ``PE_FEATURES_V1``.  Version 1 files load
unchanged; a model is written as version 1 when it uses none of these, else as 2.
Version 3 (models imported from other tools, docs/interchange.md) adds ``"bos"``
({"token", "embedding"}), ``"position_embedding.table"`` (one row per position),
``"output"`` ({"kind", "W", "b", "labels"}), ``"tie_rtol"`` and ``"own_tau"``; a model is
written in the lowest version that expresses it.
Version 4 adds the numerical-predicate position features (``spec.transformer.predicate_feature``:
``i mod M = R`` and ``P*i + Q*n + R > 0``, 0/1 for every (i, n)); a model without them is written
exactly as before.
Version 5 adds ``"position_embedding.exact_length"`` (true: the position table serves inputs of exactly
its length, as an export that froze length-dependent features writes it); a model without it is written
exactly as before.
A file of a newer version is refused with a clear error.
An FFN of width 0 (or a head with value width 0) may write its empty matrix as ``[]``: it is read as
0 rows of width d.

    {
      "format": "hardsoft-model/1",
      "name": "has-a", "description": "...", "hard_mode": "average",
      "alphabet": ["a", "b"],
      "word_embedding": [[...], ...],                       # |alphabet| x d
      "position_embedding": {"features": ["one", "i/n"],    # names from spec.transformer.PE_FEATURES
                             "matrix": [[...], ...]},       # len(features) x d
      "layers": [
        {"heads": [{"W_Q": [[...]], "W_K": [[...]], "W_V": [[...]], "W_O": [[...]],
                    "mask": "none"}],                       # none|causal|strict|anticausal|strict_anticausal
         "ffn": {"W1": [[...]], "b1": [...], "W2": [[...]], "b2": [...]}}
      ]
    }

Matrices are lists of rows; the row-vector convention of Section 2 applies
(x W_Q, y W_1).  Every malformed file raises ValueError naming the field.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from hardsoft.spec.constants import TIE_RTOL
from hardsoft.spec.transformer import PE_FEATURES_V1, Head, Layer, Model, Output, PositionEmbedding, Readout, is_predicate_feature

FORMAT_V1 = "hardsoft-model/1"
FORMAT_V2 = "hardsoft-model/2"
FORMAT_V3 = "hardsoft-model/3"
FORMAT_V4 = "hardsoft-model/4"
FORMAT_V5 = "hardsoft-model/5"
#: The newest format this version reads and writes.
FORMAT = FORMAT_V5
FORMATS = (FORMAT_V1, FORMAT_V2, FORMAT_V3, FORMAT_V4, FORMAT_V5)
#: Top-level fields that need format 3.
V3_FIELDS = ("bos", "output", "tie_rtol", "own_tau")


def _version(fmt: Any) -> int:
    """Return the version number of a format string, refusing unknown and newer ones."""
    if fmt in FORMATS:
        return FORMATS.index(fmt) + 1
    if isinstance(fmt, str) and fmt.startswith("hardsoft-model/"):
        tail = fmt.rpartition("/")[2]
        if tail.isdigit() and int(tail) > len(FORMATS):
            raise ValueError(f"model file: format {fmt!r} is newer than this hardsoft reads (up to {FORMAT!r}); upgrade hardsoft")
    raise ValueError(f"model file: format must be one of {', '.join(map(repr, FORMATS))}, got {fmt!r}")


def _get(obj: Any, key: str, where: str) -> Any:
    """Return obj[key], or raise ValueError naming the missing field."""
    if not isinstance(obj, dict):
        raise ValueError(f"{where} must be a JSON object")
    if key not in obj:
        raise ValueError(f"model file: missing field {where}.{key}" if where else f"model file: missing field {key}")
    return obj[key]


def model_from_dict(data: Any) -> Model:
    """Return the Model described by a parsed model file (ValueError on any malformed field)."""
    if not isinstance(data, dict):
        raise ValueError("model file: the top level must be a JSON object")
    version = _version(data.get("format"))
    pe = _get(data, "position_embedding", "")
    feats = _get(pe, "features", "position_embedding")
    if not isinstance(feats, list) or not all(isinstance(f, str) for f in feats):
        raise ValueError("model file: position_embedding.features must be a list of names")
    if version == 1:
        newer = [f for f in feats if f not in PE_FEATURES_V1 and f in _pe_names()]
        if newer:
            raise ValueError(f"model file: position feature {newer[0]!r} needs format {FORMAT_V2!r}")
        if "readout" in data:
            raise ValueError(f"model file: readout needs format {FORMAT_V2!r}")
    if version < 4:
        pred = [f for f in feats if is_predicate_feature(f)]
        if pred:
            raise ValueError(f"model file: position feature {pred[0]!r} needs format {FORMAT_V4!r}")
    if version < 3:
        for key in V3_FIELDS:
            if key in data:
                raise ValueError(f"model file: {key} needs format {FORMAT_V3!r}")
        if isinstance(pe, dict) and "table" in pe:
            raise ValueError(f"model file: position_embedding.table needs format {FORMAT_V3!r}")
    exact = pe.get("exact_length", False) if isinstance(pe, dict) else False
    if not isinstance(exact, bool):
        raise ValueError("model file: position_embedding.exact_length must be true or false")
    if exact and version < 5:
        raise ValueError(f"model file: position_embedding.exact_length needs format {FORMAT_V5!r}")
    d = _width(data.get("word_embedding"))
    layers_raw = _get(data, "layers", "")
    if not isinstance(layers_raw, list):
        raise ValueError("model file: layers must be a list")
    layers = []
    for l, lr in enumerate(layers_raw):
        heads_raw = _get(lr, "heads", f"layers[{l}]")
        if not isinstance(heads_raw, list):
            raise ValueError(f"model file: layers[{l}].heads must be a list")
        heads = tuple(
            Head(
                _get(h, "W_Q", f"layers[{l}].heads[{k}]"),
                _get(h, "W_K", f"layers[{l}].heads[{k}]"),
                _get(h, "W_V", f"layers[{l}].heads[{k}]"),
                _empty_rows(_get(h, "W_O", f"layers[{l}].heads[{k}]"), d),
                h.get("mask", "none"),
                _head_mode(h, version, f"layers[{l}].heads[{k}]"),
            )
            for k, h in enumerate(heads_raw)
        )
        ffn = _get(lr, "ffn", f"layers[{l}]")
        w = f"layers[{l}].ffn"
        layers.append(Layer(heads, _get(ffn, "W1", w), _get(ffn, "b1", w), _empty_rows(_get(ffn, "W2", w), d), _get(ffn, "b2", w)))
    alphabet = _get(data, "alphabet", "")
    if not isinstance(alphabet, list) or not all(isinstance(a, str) and a for a in alphabet):
        raise ValueError("model file: alphabet must be a list of non-empty strings")
    bos_token, bos_embedding = _bos(data.get("bos"))
    tie = data.get("tie_rtol", TIE_RTOL)
    if isinstance(tie, bool) or not isinstance(tie, (int, float)):
        raise ValueError("model file: tie_rtol must be a number")
    own = data.get("own_tau")
    if own is not None and (isinstance(own, bool) or not isinstance(own, (int, float)) or not own > 0):
        raise ValueError("model file: own_tau must be a positive number")
    try:
        return Model(
            alphabet=tuple(alphabet),
            WE=_get(data, "word_embedding", ""),
            PE=PositionEmbedding(tuple(feats), _get(pe, "matrix", "position_embedding"), pe.get("table"), exact),
            layers=tuple(layers),
            name=str(data.get("name", "model")),
            hard_mode=str(data.get("hard_mode", "average")),
            readout=_readout(data.get("readout")),
            bos_token=bos_token,
            bos_embedding=bos_embedding,
            output=_output(data.get("output")),
            tie_rtol=float(tie),
            own_tau=None if own is None else float(own),
        )
    except ValueError as e:
        msg = str(e)
        raise ValueError(msg if msg.startswith("model file") else f"model file: {msg}") from None


def _width(WE: Any) -> int | None:
    """Return d, the width of a word embedding given as a list of equal rows, or None when it is not one (the Model refuses it)."""
    if isinstance(WE, list) and WE and all(isinstance(r, list) for r in WE) and len({len(r) for r in WE}) == 1:
        return len(WE[0])
    return None


def _empty_rows(M: Any, d: int | None) -> Any:
    """Return a matrix with no rows written as [] (an FFN of width 0, a head of value width 0) as a 0 x d array; anything else unchanged."""
    if isinstance(M, list) and not M and d is not None:
        return np.zeros((0, d))
    return M


def _bos(b: Any) -> tuple[str | None, Any]:
    """Return (token, embedding) of a format 3 ``bos`` field, or (None, None)."""
    if b is None:
        return None, None
    if not isinstance(b, dict):
        raise ValueError("model file: bos must be a JSON object {token, embedding}")
    token = _get(b, "token", "bos")
    if not isinstance(token, str) or not token:
        raise ValueError("model file: bos.token must be a non-empty string")
    return token, _get(b, "embedding", "bos")


def _output(o: Any) -> Output | None:
    """Return the per-position output of a format 3 file, or None."""
    if o is None:
        return None
    if not isinstance(o, dict):
        raise ValueError("model file: output must be a JSON object {kind, W, b, labels}")
    labels = o.get("labels")
    if labels is not None and (not isinstance(labels, list) or not all(isinstance(x, str) for x in labels)):
        raise ValueError("model file: output.labels must be a list of strings")
    kind = _get(o, "kind", "output")
    return Output(str(kind), _get(o, "W", "output"), _get(o, "b", "output"), None if labels is None else tuple(labels))


def _pe_names() -> tuple[str, ...]:
    from hardsoft.spec.transformer import PE_FEATURES

    return tuple(PE_FEATURES)


def _head_mode(h: Any, version: int, where: str) -> str | None:
    """Return a head's own hard mode (format 2), or None."""
    if not isinstance(h, dict) or "hard_mode" not in h or h["hard_mode"] is None:
        return None
    if version == 1:
        raise ValueError(f"model file: {where}.hard_mode needs format {FORMAT_V2!r}")
    if not isinstance(h["hard_mode"], str):
        raise ValueError(f"model file: {where}.hard_mode must be average, leftmost or rightmost")
    return h["hard_mode"]


def _readout(r: Any) -> Readout | None:
    """Return the read-out of a format 2 file, or None."""
    if r is None:
        return None
    if not isinstance(r, dict):
        raise ValueError("model file: readout must be a JSON object")
    c = _get(r, "coordinate", "readout")
    if isinstance(c, bool) or not isinstance(c, int):
        raise ValueError("model file: readout.coordinate must be an integer")
    t = r.get("threshold", 0.5)
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        raise ValueError("model file: readout.threshold must be a number")
    return Readout(c, str(r.get("position", "last")), float(t))


def needs_v5(model: Model) -> bool:
    """Return whether the model uses a format 5 feature (a position table serving exactly its length)."""
    return model.PE.exact_length


def needs_v4(model: Model) -> bool:
    """Return whether the model uses a format 4 feature (a numerical-predicate position feature)."""
    return any(is_predicate_feature(f) for f in model.PE.features)


def needs_v2(model: Model) -> bool:
    """Return whether the model uses a format 2 feature (per-head hard mode, read-out, new position feature)."""
    return (
        model.readout is not None
        or any(f not in PE_FEATURES_V1 for f in model.PE.features)
        or any(h.hard_mode is not None for layer in model.layers for h in layer.heads)
    )


def needs_v3(model: Model) -> bool:
    """Return whether the model uses a format 3 feature (BOS, position table, output, own tie tolerance or temperature)."""
    return (
        model.bos_token is not None
        or model.PE.table is not None
        or model.output is not None
        or model.tie_rtol != TIE_RTOL
        or model.own_tau is not None
    )


def model_to_dict(model: Model, description: str = "") -> dict[str, Any]:
    """Return the model file contents (a JSON-ready dict) of a Model, in the lowest format version that expresses it."""
    tl = lambda a: np.asarray(a).tolist()  # noqa: E731
    v5 = needs_v5(model)
    v4 = needs_v4(model)
    v3 = needs_v3(model)
    v2 = needs_v2(model)

    def head(h: Head) -> dict[str, Any]:
        d = {"W_Q": tl(h.W_Q), "W_K": tl(h.W_K), "W_V": tl(h.W_V), "W_O": tl(h.W_O), "mask": h.mask}
        if h.hard_mode is not None:
            d["hard_mode"] = h.hard_mode
        return d

    out: dict[str, Any] = {
        "format": FORMAT_V5 if v5 else FORMAT_V4 if v4 else FORMAT_V3 if v3 else FORMAT_V2 if v2 else FORMAT_V1,
        "name": model.name,
        "description": description,
        "hard_mode": model.hard_mode,
        "alphabet": list(model.alphabet),
        "word_embedding": tl(model.WE),
        "position_embedding": {"features": list(model.PE.features), "matrix": tl(model.PE.matrix)},
        "layers": [
            {
                "heads": [head(h) for h in layer.heads],
                "ffn": {"W1": tl(layer.W1), "b1": tl(layer.b1), "W2": tl(layer.W2), "b2": tl(layer.b2)},
            }
            for layer in model.layers
        ],
    }
    if model.readout is not None:
        r = model.readout
        out["readout"] = {"coordinate": r.coordinate, "position": r.position, "threshold": r.threshold}
    if model.PE.table is not None:
        out["position_embedding"]["table"] = tl(model.PE.table)
    if model.PE.exact_length:
        out["position_embedding"]["exact_length"] = True
    if model.bos_token is not None:
        out["bos"] = {"token": model.bos_token, "embedding": tl(model.bos_embedding)}
    if model.output is not None:
        o = model.output
        out["output"] = {"kind": o.kind, "W": tl(o.W), "b": tl(o.b), "labels": None if o.labels is None else list(o.labels)}
    if model.tie_rtol != TIE_RTOL:
        out["tie_rtol"] = model.tie_rtol
    if model.own_tau is not None:
        out["own_tau"] = model.own_tau
    return out


def read_json(path: str | os.PathLike[str], what: str) -> Any:
    """Return the JSON value in a file; a ValueError naming ``what`` and the file if it cannot be read, is not UTF-8 or not JSON."""
    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"cannot read {what} {p}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{what} {p} is not valid JSON: {e.msg} at line {e.lineno}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{what} {p} is not UTF-8 text") from None


def load_model(path: str | os.PathLike[str]) -> Model:
    """Return the Model in a model file (ValueError if unreadable, not JSON, or malformed)."""
    return model_from_dict(read_json(path, "model file"))


def save_model(model: Model, path: str | os.PathLike[str], description: str = "") -> None:
    """Write a model file atomically (a temporary file renamed into place)."""
    p = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=".tmp-", suffix=".json")
    except OSError as e:
        raise ValueError(f"cannot write model file {p}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(model_to_dict(model, description), f, indent=1)
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
