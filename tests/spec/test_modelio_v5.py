"""Model format 5: a position table serving exactly its length (an export that froze length-dependent features); empty FFNs load back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hardsoft.spec import transformer as tf
from hardsoft.spec.examples import build_has_a
from hardsoft.spec.modelio import FORMAT_V1, FORMAT_V3, FORMAT_V5, load_model, model_from_dict, model_to_dict, save_model


def _exact(rows: int = 4, exact: bool = True) -> tf.Model:
    m = build_has_a()
    return tf.Model(m.alphabet, m.WE, tf.PositionEmbedding((), np.zeros((0, m.d)), m.PE.apply(rows), exact_length=exact), m.layers, m.name)


def test_exact_length_serves_one_length_only() -> None:
    m = _exact(4)
    assert m.require_length(4) == 4
    with pytest.raises(ValueError, match="serves inputs of exactly 4 symbols"):
        m.require_length(3)
    with pytest.raises(ValueError, match="exceeds the model's position table"):
        m.require_length(5)
    with pytest.raises(ValueError, match="serves inputs of exactly 4 symbols"):
        tf.run(m, np.zeros((1, 2), dtype=int), "average")
    # planted: without the flag the same table serves the shorter input
    assert tf.run(_exact(4, exact=False), np.zeros((1, 2), dtype=int), "average").activations[-1].shape == (1, 2, m.d)


def test_format_5_round_trip_and_older_versions_refuse_the_field(tmp_path: Path) -> None:
    d = model_to_dict(_exact())
    assert d["format"] == FORMAT_V5 and d["position_embedding"]["exact_length"] is True
    f = tmp_path / "m.json"
    save_model(_exact(), f)
    assert model_to_dict(load_model(f)) == d
    assert model_to_dict(_exact(exact=False))["format"] == FORMAT_V3  # without it, written exactly as before
    d["format"] = FORMAT_V3
    with pytest.raises(ValueError, match="exact_length needs format 'hardsoft-model/5'"):
        model_from_dict(d)
    d["format"] = FORMAT_V5
    d["position_embedding"]["exact_length"] = "yes"
    with pytest.raises(ValueError, match="exact_length must be true or false"):
        model_from_dict(d)


def test_exact_length_without_a_table_is_refused() -> None:
    with pytest.raises(ValueError, match="exact_length needs a position table"):
        tf.PositionEmbedding(("one",), np.zeros((1, 3)), None, exact_length=True)


@pytest.mark.parametrize("width", ["ffn", "head"])
def test_an_empty_ffn_or_value_width_loads_back(tmp_path: Path, width: str) -> None:
    m = build_has_a()
    ly = m.layers[0]
    d = m.d
    if width == "ffn":
        layer = tf.Layer(ly.heads, np.zeros((d, 0)), np.zeros(0), np.zeros((0, d)), ly.b2)
    else:
        h = ly.heads[0]
        layer = tf.Layer((tf.Head(h.W_Q, h.W_K, np.zeros((d, 0)), np.zeros((0, d)), h.mask),), ly.W1, ly.b1, ly.W2, ly.b2)
    m2 = tf.Model(m.alphabet, m.WE, m.PE, (layer,), m.name)
    f = tmp_path / "m.json"
    save_model(m2, f)
    raw = json.loads(f.read_text())
    assert raw["format"] == FORMAT_V1
    assert (raw["layers"][0]["ffn"]["W2"] if width == "ffn" else raw["layers"][0]["heads"][0]["W_O"]) == []  # written as []
    back = load_model(f)
    assert model_to_dict(back) == model_to_dict(m2)
