"""Model format 4: the numerical-predicate position features i mod M = R and P*i + Q*n + R > 0; older versions unchanged."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hardsoft.locations import example_model_files
from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import MAX_INTEGER
from hardsoft.spec.examples import EXAMPLES
from hardsoft.spec.modelio import FORMAT_V1, FORMAT_V2, FORMAT_V3, FORMAT_V4, load_model, model_from_dict, model_to_dict, save_model


def _with_features(features: tuple[str, ...]) -> tf.Model:
    base = EXAMPLES["has-a"]()
    P = np.zeros((len(features), base.d))
    for k in range(len(features)):
        P[k, k % base.d] = 1.0
    return tf.Model(base.alphabet, base.WE, tf.PositionEmbedding(features, P), base.layers, base.name, base.hard_mode)


def test_feature_values_from_the_definitions() -> None:
    i = np.arange(7)
    assert tf.feature_function("i mod 3 = 1")(i, 7).tolist() == [0, 1, 0, 0, 1, 0, 0]
    assert tf.feature_function("-2*i + 1*n + 0 > 0")(i, 7).tolist() == [1, 1, 1, 1, 0, 0, 0]  # 2i < 7
    assert tf.feature_function("1*i + 0*n - 2 > 0")(i, 7).tolist() == [0, 0, 0, 1, 1, 1, 1]  # i > 2
    assert tf.feature_function("0*i + 0*n + 0 > 0")(i, 7).tolist() == [0] * 7


def _assert_exact_at_huge_n(phi) -> None:
    """2i - n + 1 > 0 at n = 2^60 + 1: false at i = 2^59 (the value is 0), true at i = 2^59 + 1 (2); float64 reads n as 2^60."""
    n = 2**60 + 1
    got = phi(np.array([2**59, 2**59 + 1], dtype=np.int64), n)
    assert got.dtype == np.float64 and got.tolist() == [0.0, 1.0]


def test_linear_features_are_exact_where_float64_is_not() -> None:
    _assert_exact_at_huge_n(tf.feature_function(tf.linear_feature(2, -1, 1)))


def test_a_feature_computed_in_float64_is_caught() -> None:
    def wrong(i: np.ndarray, n: int) -> np.ndarray:
        return (2.0 * i.astype(np.float64) - float(n) + 1.0 > 0).astype(np.float64)

    with pytest.raises(AssertionError):
        _assert_exact_at_huge_n(wrong)


def test_features_at_the_bound_against_int64_up_to_2_20() -> None:
    n = 2**20
    i = np.arange(n, dtype=np.int64)
    for p, q, r in [(MAX_INTEGER, -MAX_INTEGER // 2, -MAX_INTEGER), (-MAX_INTEGER, MAX_INTEGER - 1, MAX_INTEGER), (3, -1, 0)]:
        want = (p * i + (q * n + r) > 0).astype(np.float64)  # int64 is exact here: |p| n + |q| n + |r| < 2^42
        assert np.array_equal(tf.feature_function(tf.linear_feature(p, q, r))(i, n), want)
    assert np.array_equal(tf.feature_function(tf.mod_feature(MAX_INTEGER, 7))(i, n), (i % MAX_INTEGER == 7).astype(np.float64))


def test_a_model_with_predicates_is_written_as_v4_and_round_trips(tmp_path) -> None:
    m = _with_features(("one", "i mod 3 = 2", "-2*i + 1*n + 0 > 0", "parity"))
    p = tmp_path / "m.json"
    save_model(m, p)
    assert json.loads(p.read_text())["format"] == FORMAT_V4
    m2 = load_model(p)
    assert model_to_dict(m2) == model_to_dict(m)
    w = np.array([[0, 1, 0, 0, 1]])
    np.testing.assert_array_equal(tf.run(m, w, "hard").activations[-1], tf.run(m2, w, "hard").activations[-1])


def test_models_without_predicates_keep_their_version_and_bytes() -> None:
    assert model_to_dict(_with_features(("one", "parity")))["format"] == FORMAT_V1
    assert model_to_dict(_with_features(("one", "n*parity")))["format"] == FORMAT_V2
    for path in example_model_files().values():
        text = path.read_text()
        assert json.dumps(model_to_dict(load_model(path), json.loads(text)["description"]), indent=1) == text.rstrip("\n")


@pytest.mark.parametrize("version", [FORMAT_V1, FORMAT_V2, FORMAT_V3])
def test_an_older_file_using_a_predicate_is_refused(version: str) -> None:
    d = model_to_dict(_with_features(("one", "i mod 3 = 2")))
    d["format"] = version
    with pytest.raises(ValueError, match=r"position feature 'i mod 3 = 2' needs format 'hardsoft-model/4'"):
        model_from_dict(d)


def test_format_6_is_refused_as_newer() -> None:
    d = model_to_dict(_with_features(("one",)))
    d["format"] = "hardsoft-model/6"
    with pytest.raises(ValueError, match="newer than this hardsoft reads"):
        model_from_dict(d)


@pytest.mark.parametrize(
    "name, needle",
    [
        ("i mod 0 = 0", f"the modulus must be in 1..{MAX_INTEGER}"),
        (f"i mod {MAX_INTEGER + 1} = 0", f"the modulus must be in 1..{MAX_INTEGER}"),
        ("i mod 3 = 3", "the residue must be in 0..2"),
        ("i mod 03 = 1", "write it as 'i mod 3 = 1'"),
        ("2*i + -1*n + 0 > 0", "unknown position feature"),
        ("2*i - 1*n + 0 >= 0", "unknown position feature"),
        ("-0*i + 1*n + 0 > 0", "write it as '0*i + 1*n + 0 > 0'"),
        (f"{MAX_INTEGER + 1}*i + 0*n + 0 > 0", f"at most {MAX_INTEGER} in absolute value"),
        ("1*i + 0*n + " + "9" * 400 + " > 0", "unknown position feature"),
        ("i div 3", "unknown position feature"),
    ],
)
def test_malformed_predicate_features_are_refused_in_one_line(name: str, needle: str) -> None:
    d = model_to_dict(_with_features(("one", "i mod 3 = 2")))
    d["position_embedding"]["features"][1] = name
    with pytest.raises(ValueError) as e:
        model_from_dict(d)
    assert needle in str(e.value) and str(e.value).startswith("model file") and "\n" not in str(e.value), str(e.value)
