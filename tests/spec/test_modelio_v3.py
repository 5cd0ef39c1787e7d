"""Model format 3: BOS, position table, per-position output, tie tolerance, own temperature; versions 1 and 2 unchanged."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from interop_cases import build_v3_model

from hardsoft.locations import example_model_files
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import TIE_RTOL, TIE_RTOL_FLOAT32
from hardsoft.spec.examples import EXAMPLES
from hardsoft.spec.modelio import FORMAT_V1, FORMAT_V2, FORMAT_V3, load_model, model_from_dict, model_to_dict, save_model


def _same(a: tf.Model, b: tf.Model) -> None:
    """Assert two models are bit-identical in every field."""
    assert model_to_dict(a) == model_to_dict(b)
    for x, y in zip(tf.run(a, np.array([[0, 1, 2]]), "hard").activations, tf.run(b, np.array([[0, 1, 2]]), "hard").activations):
        np.testing.assert_array_equal(x, y)


def test_v3_round_trip_keeps_every_new_field(tmp_path) -> None:
    m = build_v3_model()
    p = tmp_path / "m.json"
    save_model(m, p)
    assert json.loads(p.read_text())["format"] == FORMAT_V3
    m2 = load_model(p)
    assert m2.bos_token == "BOS" and m2.bos_embedding is not None
    np.testing.assert_array_equal(m2.bos_embedding, m.bos_embedding)
    assert m2.PE.table is not None and m.PE.table is not None
    np.testing.assert_array_equal(m2.PE.table, m.PE.table)
    assert m2.output is not None and m2.output.labels == ("p", "q", "r") and m2.output.kind == "categorical"
    np.testing.assert_array_equal(m2.output.W, m.output.W)  # type: ignore[union-attr]
    assert m2.tie_rtol == TIE_RTOL_FLOAT32 and m2.own_tau == 0.5
    _same(m, m2)


@pytest.mark.parametrize("field", ["bos", "table", "output", "tie_rtol", "own_tau"])
def test_each_v3_field_alone_needs_v3_and_round_trips(field: str) -> None:
    base = EXAMPLES["has-a"]()
    d = base.d
    kw: dict = {}
    pe = base.PE
    if field == "bos":
        kw = dict(bos_token="^", bos_embedding=np.arange(d, dtype=float))
    elif field == "table":
        pe = tf.PositionEmbedding(base.PE.features, base.PE.matrix, np.ones((4, d)))
    elif field == "output":
        kw = dict(output=tf.Output("numerical", np.ones((d, 1)), np.zeros(1)))
    elif field == "tie_rtol":
        kw = dict(tie_rtol=0.0)
    else:
        kw = dict(own_tau=2.0)
    m = tf.Model(base.alphabet, base.WE, pe, base.layers, base.name, base.hard_mode, base.readout, **kw)
    dct = model_to_dict(m)
    assert dct["format"] == FORMAT_V3
    m2 = model_from_dict(json.loads(json.dumps(dct)))
    assert model_to_dict(m2) == dct


def test_v1_and_v2_files_load_and_are_written_unchanged() -> None:
    for name, path in example_model_files().items():
        raw = json.loads(path.read_text())
        assert raw["format"] in (FORMAT_V1, FORMAT_V2)
        again = model_to_dict(load_model(path), raw.get("description", ""))
        assert again == raw, name
    for build in EXAMPLES.values():
        assert model_to_dict(build())["format"] in (FORMAT_V1, FORMAT_V2)


def _v3_dict() -> dict:
    return model_to_dict(build_v3_model())


@pytest.mark.parametrize(
    "edit,msg",
    [
        (lambda d: d["bos"].pop("embedding"), r"missing field bos\.embedding"),
        (lambda d: d["bos"].update(embedding=[1.0]), r"bos\.embedding has shape"),
        (lambda d: d["bos"].update(token="x"), r"bos\.token must be a non-empty string outside the alphabet"),
        (lambda d: d.update(bos="BOS"), r"bos must be a JSON object"),
        (lambda d: d["position_embedding"].update(table=[[1.0]]), r"position_embedding\.table has 1 columns"),
        (lambda d: d["position_embedding"].update(table=[[1.0, "a", 0, 0, 0]]), r"position_embedding\.table must be an array"),
        (lambda d: d["output"].update(kind="softmax"), r"output\.kind must be categorical or numerical"),
        (lambda d: d["output"].update(labels=["p"]), r"output\.labels: a categorical output needs one label per column"),
        (lambda d: d["output"].update(b=[0.0]), r"output\.b has shape"),
        (lambda d: d["output"].update(W=[[0.0, 1.0, 2.0]]), r"output\.W has 1 rows"),
        (lambda d: d.update(tie_rtol=-1.0), r"tie_rtol must be a number in"),
        (lambda d: d.update(tie_rtol="1e-4"), r"tie_rtol must be a number"),
        (lambda d: d.update(own_tau=0), r"own_tau must be a positive number"),
        (lambda d: d.update(format=FORMAT_V2), r"bos needs format 'hardsoft-model/3'"),
    ],
)
def test_malformed_v3_fields_are_refused_naming_the_field(edit, msg: str) -> None:
    d = _v3_dict()
    edit(d)
    with pytest.raises(ValueError, match=msg):
        model_from_dict(d)


def test_v2_file_with_a_table_is_refused() -> None:
    d = model_to_dict(EXAMPLES["has-a"]())
    d["position_embedding"]["table"] = [[0.0] * 3]
    with pytest.raises(ValueError, match=r"position_embedding\.table needs format"):
        model_from_dict(d)


def test_bos_is_at_position_zero_and_enumeration_skips_it() -> None:
    m = build_v3_model()
    acts = tf.run(m, np.array([[0, 1]]), "hard").activations
    assert acts[0].shape == (1, 3, m.d)  # BOS + 2 symbols
    np.testing.assert_array_equal(acts[0][0, 0], m.bos_embedding + m.PE.table[0])  # type: ignore[index,operator]
    np.testing.assert_array_equal(acts[0][0, 1], m.WE[0] + m.PE.table[1])  # type: ignore[index]
    meas = tf.measure(m, 2)
    assert meas.inputs == 3**2  # BOS is not a symbol of the enumeration
    assert m.positions(2) == 3 and m.max_input_length == 5


def test_input_longer_than_the_position_table_is_refused() -> None:
    m = build_v3_model(n_ctx=4)
    tf.run(m, np.zeros((1, 3), dtype=int), "hard")
    with pytest.raises(ValueError, match="input length 4 exceeds the model's position table: at most 3 symbols after BOS"):
        tf.run(m, np.zeros((1, 4), dtype=int), "hard")
    with pytest.raises(ValueError, match="exceeds the model's position table"):
        tf.measure(m, 4)


def _near_tie_model(delta: float, tie_rtol: float) -> tf.Model:
    """One head, every query sees two keys: 'a' scores 100 + delta, 'b' scores 100; the value is 1 on 'a', 0 on 'b'."""
    WE = np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]])  # coordinates: one, is_a, out
    WQ = np.array([[10.0], [0.0], [0.0]])
    WK = np.array([[10.0], [delta / 10.0], [0.0]])
    WV = np.array([[0.0], [1.0], [0.0]])
    WO = np.array([[0.0, 0.0, 1.0]])
    layer = tf.Layer((tf.Head(WQ, WK, WV, WO),), np.zeros((3, 1)), np.zeros(1), np.zeros((1, 3)), np.zeros(3))
    return tf.Model(("a", "b"), WE, tf.PositionEmbedding((), np.zeros((0, 3))), (layer,), tie_rtol=tie_rtol)


def test_tie_tolerance_decides_whether_a_float32_near_tie_is_a_tie() -> None:
    delta = 4.77e-5  # 100.0000477 against 100: 4 float32 ulps
    w = np.array([[0, 1]])
    strict = tf.run(_near_tie_model(delta, TIE_RTOL), w, "average").activations[-1][0, :, 2]
    loose = tf.run(_near_tie_model(delta, TIE_RTOL_FLOAT32), w, "average").activations[-1][0, :, 2]
    assert strict.tolist() == [1.0, 1.0]  # float64 tolerance: 'a' wins alone
    assert loose.tolist() == [0.5, 0.5]  # float32 tolerance: a tie, averaged
    meas = tf.measure(_near_tie_model(delta, TIE_RTOL_FLOAT32), 2)
    assert meas.gap == float("inf") and meas.tie_spread == pytest.approx(delta, rel=1e-6)
    assert tf.measure(_near_tie_model(delta, TIE_RTOL), 2).tie_spread == 0.0


def test_spread_term_bounds_the_soft_error_and_dropping_it_does_not() -> None:
    """The tie-spread term a2/tau is needed: cold softmax picks the near-tied 'a', the hard average does not."""
    m = _near_tie_model(4.77e-5, TIE_RTOL_FLOAT32)
    meas = tf.measure(m, 2)
    consts = tf.compute_recursion_constants(m, meas)
    assert consts is not None and consts.has_spread
    w = np.concatenate(list(tf.enumerate_inputs(2, 2)))
    for tau in (1e-3, 1e-5, 1e-6):
        err = tf.compute_layer_errors(tf.run(m, w, "hard"), tf.run(m, w, "soft", tau=tau))[-1]
        assert err <= bd.certify_bound_at(consts, tau)
    # the wrong variant: the same constants without the spread term claim 0 error; the measured error is ~0.5 at tau = 1e-6
    err = tf.compute_layer_errors(tf.run(m, w, "hard"), tf.run(m, w, "soft", tau=1e-6))[-1]
    assert err > 0.4 and bd.certify_bound_at(consts.without_spread(), 1e-6) == 0.0
    with pytest.raises(ValueError, match="tie spread > 0"):
        bd.compute_tightest_inverse_temperature(consts, 0.1)


def test_bos_positions_enter_the_bounds() -> None:
    m = build_v3_model()
    meas = tf.measure(m, 2)
    c = tf.compute_recursion_constants(m, meas)
    assert c is not None
    norms = tf.compute_model_norms(m)
    expect = bd.compute_layer_coefficients(max(meas.x_max, 1e-300), 3, norms[0])[2]  # N = 3 positions: BOS + 2
    assert c.a1[0] == expect


def test_categorical_and_numerical_outputs_decode_per_position() -> None:
    final = np.array([[[1.0, 0.0], [0.0, 2.0]]])
    cat = tf.Output("categorical", np.eye(2), np.zeros(2), ("u", "v"))
    assert cat.decode(final).tolist() == [[0, 1]]
    num = tf.Output("numerical", np.array([[1.0], [10.0]]), np.array([0.5]))
    assert num.decode(final).tolist() == [[1.5, 20.5]]
    d = copy.deepcopy(model_to_dict(build_v3_model()))
    d["output"]["kind"] = "numerical"
    with pytest.raises(ValueError, match="output.W of a numerical output has 3 columns"):
        model_from_dict(d)


@pytest.mark.parametrize("mode,tau", [("hard", None), ("soft", 0.3)])
def test_v3_vectorised_run_equals_the_loop_references(mode: str, tau: float | None) -> None:
    """BOS, position table and tie tolerance: the vectorised run agrees with both plain-loop references."""
    from hardsoft.spec.constants import FLOAT64_EPS
    from hardsoft.spec.reference import run_loop, run_pair_loop

    m = build_v3_model()
    w = np.random.default_rng(2).integers(0, 3, size=(3, 5))
    fast = tf.run(m, w, mode, tau).activations
    for slow in (run_loop(m, w, mode, tau), run_pair_loop(m, w, mode, tau)):
        for a, b in zip(fast, slow):
            assert a.shape == (3, 6, m.d)
            np.testing.assert_allclose(a, b, rtol=0, atol=1e4 * FLOAT64_EPS * max(1.0, np.abs(b).max()))
