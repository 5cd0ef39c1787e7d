"""The model file format (docs/model-format.md): JSON, version "hardsoft-model/1".

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

from hardsoft.spec.transformer import Head, Layer, Model, PositionEmbedding

FORMAT = "hardsoft-model/1"


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
    fmt = data.get("format")
    if fmt != FORMAT:
        raise ValueError(f"model file: format must be {FORMAT!r}, got {fmt!r}")
    pe = _get(data, "position_embedding", "")
    feats = _get(pe, "features", "position_embedding")
    if not isinstance(feats, list) or not all(isinstance(f, str) for f in feats):
        raise ValueError("model file: position_embedding.features must be a list of names")
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
                _get(h, "W_O", f"layers[{l}].heads[{k}]"),
                h.get("mask", "none"),
            )
            for k, h in enumerate(heads_raw)
        )
        ffn = _get(lr, "ffn", f"layers[{l}]")
        w = f"layers[{l}].ffn"
        layers.append(Layer(heads, _get(ffn, "W1", w), _get(ffn, "b1", w), _get(ffn, "W2", w), _get(ffn, "b2", w)))
    alphabet = _get(data, "alphabet", "")
    if not isinstance(alphabet, list) or not all(isinstance(a, str) and a for a in alphabet):
        raise ValueError("model file: alphabet must be a list of non-empty strings")
    return Model(
        alphabet=tuple(alphabet),
        WE=_get(data, "word_embedding", ""),
        PE=PositionEmbedding(tuple(feats), _get(pe, "matrix", "position_embedding")),
        layers=tuple(layers),
        name=str(data.get("name", "model")),
        hard_mode=str(data.get("hard_mode", "average")),
    )


def model_to_dict(model: Model, description: str = "") -> dict[str, Any]:
    """Return the model file contents (a JSON-ready dict) of a Model."""
    tl = lambda a: np.asarray(a).tolist()  # noqa: E731
    return {
        "format": FORMAT,
        "name": model.name,
        "description": description,
        "hard_mode": model.hard_mode,
        "alphabet": list(model.alphabet),
        "word_embedding": tl(model.WE),
        "position_embedding": {"features": list(model.PE.features), "matrix": tl(model.PE.matrix)},
        "layers": [
            {
                "heads": [
                    {"W_Q": tl(h.W_Q), "W_K": tl(h.W_K), "W_V": tl(h.W_V), "W_O": tl(h.W_O), "mask": h.mask}
                    for h in layer.heads
                ],
                "ffn": {"W1": tl(layer.W1), "b1": tl(layer.b1), "W2": tl(layer.W2), "b2": tl(layer.b2)},
            }
            for layer in model.layers
        ],
    }


def load_model(path: str | os.PathLike[str]) -> Model:
    """Return the Model in a model file (ValueError if unreadable, not JSON, or malformed)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot read model file {p}: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"model file {p} is not valid JSON: {e.msg} at line {e.lineno}") from None
    return model_from_dict(data)


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
