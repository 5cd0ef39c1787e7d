"""Import from TransformerLens / tracr layout, export back, the reference check, and the rounding allowance in reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from interop_cases import build_v3_model, reference_logits, tl_config, tl_state_dict, write_tl_files, write_tracr_like

from hardsoft.interchange import reference, tracr
from hardsoft.interchange import transformer_lens as interop
from hardsoft.spec import transformer as tf
from hardsoft.spec.constants import FLOAT32_EPS, FLOAT64_EPS, TIE_RTOL, TIE_RTOL_FLOAT32
from hardsoft.spec.modelio import FORMAT_V3, load_model, model_to_dict, save_model
from tests.cli_run import run_hardsoft

hardsoft = run_hardsoft  # in this process (tests/cli_run.py)


def _tl(tmp_path: Path, biases: bool = True, dtype: Any = np.float32, **kw: Any) -> tuple[Path, dict, dict]:
    cfg = tl_config(**kw)
    sd = tl_state_dict(np.random.default_rng(7), cfg, dtype=dtype, biases=biases)
    st, _ = write_tl_files(tmp_path, "tl", sd, cfg)
    return st, sd, cfg


# --------------------------------------------------------------------------- import


@pytest.mark.parametrize("direction", ["causal", "bidirectional"])
@pytest.mark.parametrize("biases", [True, False])
def test_imported_soft_run_reproduces_transformer_lens_logits(tmp_path: Path, direction: str, biases: bool) -> None:
    """The soft run at tau = attn_scale equals an independent numpy forward pass of TransformerLens's definition."""
    st, sd, cfg = _tl(tmp_path, biases=biases, attention_dir=direction)
    m = interop.import_transformer_lens(st)
    assert m.d == cfg["d_model"] + (1 if biases else 0)  # the constant coordinate only when some attention bias is non-zero
    assert m.own_tau == pytest.approx(np.sqrt(cfg["d_head"])) and m.tie_rtol == TIE_RTOL_FLOAT32
    tokens = np.random.default_rng(1).integers(0, cfg["d_vocab"], size=(6, cfg["n_ctx"]))
    assert m.output is not None
    ours = m.output.logits(tf.run(m, tokens, "soft", tau=m.own_tau).activations[-1])
    theirs = reference_logits(sd, cfg, tokens)
    scale = max(1.0, float(np.abs(theirs).max()))
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e6 * FLOAT64_EPS * scale)


def test_planted_defect_dropping_the_b_O_fold_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrong variant: an importer that forgets b_O gives logits away from TransformerLens's (the comparison above catches it)."""
    st, sd, cfg = _tl(tmp_path)
    sd_no_bO = {k: (np.zeros_like(v) if k.endswith("attn.b_O") else v) for k, v in sd.items()}
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    st2, _ = write_tl_files(wrong, "tl", sd_no_bO, cfg)
    m = interop.import_transformer_lens(st2)
    tokens = np.zeros((1, 3), dtype=int)
    assert m.output is not None
    ours = m.output.logits(tf.run(m, tokens, "soft", tau=m.own_tau).activations[-1])
    assert np.abs(ours - reference_logits(sd, cfg, tokens)).max() > 1e-3


def test_float64_weights_keep_the_float64_tie_tolerance(tmp_path: Path) -> None:
    st, _, _ = _tl(tmp_path, dtype=np.float64)
    assert interop.import_transformer_lens(st).tie_rtol == TIE_RTOL
    assert TIE_RTOL_FLOAT32 == 1024 * FLOAT32_EPS


def test_attn_only_and_use_attn_scale_false(tmp_path: Path) -> None:
    st, sd, cfg = _tl(tmp_path, attn_only=True, use_attn_scale=False)
    m = interop.import_transformer_lens(st)
    assert all(layer.W1.shape[1] == 0 for layer in m.layers) and m.own_tau == 1.0


def test_tracr_hints_bos_labels_and_pad(tmp_path: Path) -> None:
    st, cj, ref = write_tracr_like(tmp_path)
    m = tracr.import_tracr(st)
    assert m.alphabet == ("a", "b") and m.bos_token == "BOS" and m.max_input_length == 3
    assert m.output is not None and m.output.labels == ("l0", "l1", "l2")
    assert model_to_dict(m)["format"] == FORMAT_V3
    cfg = json.loads(cj.read_text())
    del cfg["hardsoft"]
    cj.write_text(json.dumps(cfg))
    with pytest.raises(ValueError, match="--from tracr needs the 'hardsoft' hints"):
        tracr.import_tracr(st)


def _spoil_config(cfg: dict, key: str, value: Any) -> dict:
    cfg = dict(cfg)
    if value is KeyError:
        del cfg[key]
    else:
        cfg[key] = value
    return cfg


@pytest.mark.parametrize(
    "key,value,msg",
    [
        ("normalization_type", "LN", "normalization_type is 'LN': layer norm cannot be expressed"),
        ("act_fn", "gelu", "act_fn is 'gelu': only relu"),
        ("positional_embedding_type", "rotary", "positional_embedding_type is 'rotary'"),
        ("attention_dir", "sideways", "attention_dir must be"),
        ("n_heads", KeyError, "missing field n_heads"),
        ("d_head", 0, "d_head must be a positive integer"),
        ("gated_mlp", True, "gated_mlp is True: a gated MLP cannot be expressed"),
        ("attn_scale", -2.0, "attn_scale must be a positive number"),
        ("hardsoft", {"input_vocab": ["a"]}, r"hardsoft\.input_vocab must be a list of 4 strings"),
        ("hardsoft", {"bos": "Z"}, r"hardsoft\.bos 'Z' is not in input_vocab"),
        ("hardsoft", {"output_kind": "numerical"}, "output_kind numerical needs d_vocab_out = 1"),
    ],
)
def test_inexpressible_or_malformed_configs_are_refused_naming_the_field(tmp_path: Path, key: str, value: Any, msg: str) -> None:
    st, sd, cfg = _tl(tmp_path)
    (tmp_path / "tl.config.json").write_text(json.dumps(_spoil_config(cfg, key, value)))
    with pytest.raises(ValueError, match=msg):
        interop.import_transformer_lens(st)


@pytest.mark.parametrize(
    "edit,msg",
    [
        (lambda sd: sd.pop("blocks.1.attn.W_K"), "tensor blocks.1.attn.W_K is missing"),
        (
            lambda sd: sd.update({"blocks.0.attn.W_Q": np.zeros((2, 6, 4), np.float32)}),
            r"tensor blocks\.0\.attn\.W_Q has shape 2x6x4, expected 2x6x3",
        ),
        (lambda sd: sd.update({"blocks.0.mlp.b_in": np.zeros(4, np.float32)}), r"tensor blocks\.0\.mlp\.b_in has shape 4, expected 5 \(d_mlp\)"),
        (lambda sd: sd["unembed.W_U"].__setitem__((0, 0), np.nan), "tensor unembed.W_U contains NaN or infinite entries"),
        (lambda sd: sd["blocks.1.mlp.W_out"].__setitem__((0, 0), np.inf), "tensor blocks.1.mlp.W_out contains NaN or infinite"),
        (lambda sd: sd.update({"blocks.0.ln1.w": np.ones(6, np.float32)}), "tensor blocks.0.ln1.w: layer norm weights cannot be expressed"),
        (lambda sd: sd.update({"embed.W_E": np.zeros((4, 6), np.float16)}), "tensor embed.W_E has dtype F16: only float32"),
    ],
)
def test_bad_tensors_are_refused_naming_the_tensor(tmp_path: Path, edit, msg: str) -> None:
    cfg = tl_config()
    sd = tl_state_dict(np.random.default_rng(0), cfg)
    edit(sd)
    st, _ = write_tl_files(tmp_path, "tl", sd, cfg)
    with pytest.raises(ValueError, match=msg):
        interop.import_transformer_lens(st)


def test_cli_import_bad_input_is_one_line_exit_2_nothing_written(tmp_path: Path) -> None:
    st, sd, cfg = _tl(tmp_path)
    (tmp_path / "tl.config.json").write_text(json.dumps(_spoil_config(cfg, "act_fn", "gelu")))
    out = tmp_path / "m.json"
    p = hardsoft("import", str(st), "--from", "transformer-lens", "--out", str(out))
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "act_fn" in p.stderr and not out.exists()
    p = hardsoft(
        "import", str(tmp_path / "nope.safetensors"), "--from", "transformer-lens", "--out", str(out), "--config", str(tmp_path / "tl.config.json")
    )
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and not out.exists()


def test_imported_model_is_accepted_by_every_command(tmp_path: Path) -> None:
    st, _, ref = write_tracr_like(tmp_path)
    out = tmp_path / "m.json"
    p = hardsoft("import", str(st), "--from", "tracr", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert json.loads(out.read_text())["format"] == FORMAT_V3
    p = hardsoft("temperature", "--model", str(out), "--n", "3", "--eps", "0.01")
    assert p.returncode == 0, p.stderr
    assert "times colder than the model's own temperature" in p.stdout
    p = hardsoft("simulate", "--model", str(out), "--enumerate", "3", "--eps", "0.01", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert len(doc["layer_errors"]) == 3 and len(doc["rounding_allowances"]) == 3
    p = hardsoft("verify", "--model", str(out), "--reference", str(ref))
    assert p.returncode == 0, p.stderr
    assert "hard = reference: 14/14 agree" in p.stdout and "soft = hard: 14/14 agree" in p.stdout
    d = tmp_path / "exp"
    d.mkdir()
    p = hardsoft("export", str(out), "--to", "transformer-lens", "--out", str(d))
    assert p.returncode == 0, p.stderr
    p = hardsoft("temperature", "--model", str(out), "--n", "4", "--eps", "0.01")
    assert p.returncode == 2 and "exceeds the model's position table" in p.stderr


# --------------------------------------------------------------------------- export


def _causal_v3() -> tf.Model:
    m = build_v3_model()
    layers = tuple(
        tf.Layer(tuple(tf.Head(h.W_Q, h.W_K, h.W_V, h.W_O, "causal", h.hard_mode) for h in ly.heads), ly.W1, ly.b1, ly.W2, ly.b2) for ly in m.layers
    )
    return tf.Model(m.alphabet, m.WE, m.PE, layers, m.name, m.hard_mode, None, m.bos_token, m.bos_embedding, m.output, m.tie_rtol, m.own_tau)


def test_export_then_import_is_bit_exact(tmp_path: Path) -> None:
    m = _causal_v3()
    st, cj, fz = interop.export_transformer_lens(m, tmp_path)
    cfg = json.loads(cj.read_text())
    assert cfg["attn_scale"] == m.own_tau and cfg["d_head"] == 3 and cfg["attention_dir"] == "causal"
    assert not fz.penalized_heads and not fz.bos_added and not fz.exact_length
    back = interop.import_transformer_lens(st)
    assert model_to_dict(back) == model_to_dict(m)


def test_imported_model_exports_and_reimports_bit_exact(tmp_path: Path) -> None:
    st, _, _ = _tl(tmp_path, dtype=np.float64)
    m = interop.import_transformer_lens(st)
    out = tmp_path / "out"
    out.mkdir()
    st2, _, _ = interop.export_transformer_lens(m, out)
    assert model_to_dict(interop.import_transformer_lens(st2)) == model_to_dict(m)


def test_export_sets_attn_scale_from_the_temperature_and_tabulates_features(tmp_path: Path) -> None:
    from hardsoft.spec.examples import build_has_a

    m = build_has_a()  # position features 'one' only: tabulated up to --n-ctx
    st, cj, _ = interop.export_transformer_lens(m, tmp_path, tau=0.25, n_ctx=6)
    assert json.loads(cj.read_text())["attn_scale"] == 0.25
    back = interop.import_transformer_lens(st)
    w = np.concatenate(list(tf.enumerate_inputs(2, 6)))
    np.testing.assert_array_equal(tf.run(back, w, "average").activations[-1], tf.run(m, w, "average").activations[-1])
    assert back.own_tau == 0.25


def test_export_refusals(tmp_path: Path) -> None:
    from hardsoft.spec.examples import build_has_a

    with pytest.raises(ValueError, match="no position table: give --n-ctx"):
        interop.export_transformer_lens(build_has_a(), tmp_path)
    m = _causal_v3()
    ly = m.layers[0]
    strict = tf.Layer(tuple(tf.Head(h.W_Q, h.W_K, h.W_V, h.W_O, "strict") for h in ly.heads), ly.W1, ly.b1, ly.W2, ly.b2)
    with_bos = tf.Model(m.alphabet, m.WE, m.PE, (strict, m.layers[1]), m.name, bos_token=m.bos_token, bos_embedding=m.bos_embedding, output=m.output)
    with pytest.raises(ValueError, match=r"layers\[0\]\.heads\[0\]\.mask is 'strict' in a model that already has a BOS token"):
        interop.export_transformer_lens(with_bos, tmp_path)
    first = tf.Model(m.alphabet, m.WE, m.PE, (strict, m.layers[1]), m.name, readout=tf.Readout(0, "first"))
    with pytest.raises(ValueError, match="the readout reads the first position, where the export must put a BOS token"):
        interop.export_transformer_lens(first, tmp_path)
    with pytest.raises(ValueError, match=r"--n-ctx 9 exceeds the model's position table \(6 rows\)"):
        interop.export_transformer_lens(_causal_v3(), tmp_path, n_ctx=9)
    assert not list(tmp_path.iterdir())  # nothing written


def _hard_equal_after_export(m: tf.Model, tmp_path: Path, n_ctx: int | None, lengths: list[int]) -> interop.freeze.Frozen:
    """Export, import the files back, and check the hard run equals the original's at its positions on every input of the lengths."""
    st, _, fz = interop.export_transformer_lens(m, tmp_path, n_ctx=n_ctx)
    back = interop.import_transformer_lens(st)
    assert model_to_dict(back) == model_to_dict(fz.model)  # the files hold the frozen model bit for bit
    shift = back.offset - m.offset
    for n in lengths:
        w = np.concatenate(list(tf.enumerate_inputs(len(m.alphabet), n)))
        a = tf.run(m, w, "hard").activations[-1]
        b = tf.run(back, w, "hard").activations[-1][:, shift:, : m.d]
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-9)
    return fz


def test_bos_key_and_value_are_cancelled_when_its_residual_moves(tmp_path: Path) -> None:
    """Random FFN biases move BOS's residual away from 0: the rows minus BOS's residual times W_K, W_V keep it out of every head."""
    from hardsoft.interchange import freeze

    v3 = build_v3_model()
    layers = tuple(tf.Layer(tuple(tf.Head(h.W_Q, h.W_K, h.W_V, h.W_O, "strict") for h in ly.heads), ly.W1, ly.b1, ly.W2, ly.b2) for ly in v3.layers)
    m = tf.Model(v3.alphabet, v3.WE, v3.PE, layers, "strict-random", output=v3.output)
    fz = _hard_equal_after_export(m, tmp_path, 7, [1, 2, 4, 6])
    assert fz.bos_added and not fz.exact_length
    w = np.concatenate(list(tf.enumerate_inputs(3, 4)))
    want = tf.run(m, w, "hard").activations[-1]

    def planted(edit) -> float:
        wrong = freeze.freeze(m, 7).model
        for layer in wrong.layers:
            for hd in layer.heads:
                edit(hd)
        return float(np.abs(tf.run(wrong, w, "hard").activations[-1][:, 1:, : m.d] - want).max())

    assert planted(lambda hd: None) <= 1e-9
    assert planted(lambda hd: hd.W_V.__setitem__((m.d, slice(None)), 0.0)) > 1e-3  # BOS's value not cancelled
    assert planted(lambda hd: hd.W_Q.__setitem__((slice(m.d + 1, None), hd.W_Q.shape[1] - 7), 0.0)) > 1e-3  # no -M/2 on BOS


def test_mixed_masks_are_realised_by_a_position_score_term(tmp_path: Path) -> None:
    """build_v3_model mixes causal and none: exported bidirectional, the causal heads get the score term, every length served."""
    fz = _hard_equal_after_export(build_v3_model(), tmp_path, None, [1, 2, 3, 5])
    assert fz.direction == "bidirectional" and fz.penalized_heads == ((0, 0), (1, 0)) and not fz.bos_added
    assert fz.lengths == (1, 2, 3, 4, 5) and fz.penalty > 0


def test_length_features_are_frozen_at_one_length(tmp_path: Path) -> None:
    from hardsoft.spec.examples import build_last_a

    fz = _hard_equal_after_export(build_last_a(), tmp_path, 5, [5])
    assert fz.exact_length and fz.lengths == (5,) and fz.length_features == ("i/n",)
    back = interop.import_transformer_lens(tmp_path / f"{build_last_a().name}.safetensors")
    with pytest.raises(ValueError, match="serves inputs of exactly 5 symbols"):
        tf.run(back, np.zeros((1, 4), dtype=int), "average")


def test_strict_masks_get_a_bos_whose_key_and_value_cancel(tmp_path: Path) -> None:
    """A compiled B-RASP program (strict and strict_anticausal heads): BOS added, hard = original, the certificate holds."""
    from hardsoft.constructive.lang import brasp
    from hardsoft.constructive.lang.library import library
    from hardsoft.interchange import certificate, freeze

    ex = library()["no_bb"]
    m = brasp.compile_program(ex.text, ex.alphabet, "bounded").model
    fz = _hard_equal_after_export(m, tmp_path, 7, [6])
    assert fz.bos_added and fz.exact_length and fz.direction == "bidirectional"
    cert = certificate.certify_export(m, fz, 0.01)
    assert cert.lengths == [6] and cert.certified and cert.hard_decisions_agree == cert.decisions == 64
    assert cert.soft_decisions_agree == 64 and cert.bound_at_attn_scale <= 0.01
    assert freeze.needs_bos(m)
    assert [len(layer.heads) for layer in m.layers] == [1, 2, 0, 1] and all(len(layer.heads) == 2 for layer in fz.model.layers)  # padded


def test_optional_transformer_lens_logits_match(tmp_path: Path) -> None:
    """Load the export with the real TransformerLens (3.x HookedTransformer, 4.x TransformerBridge), compare logits (make interop-check)."""
    pytest.importorskip("transformer_lens", reason="transformer_lens and torch are not installed here: make interop-check installs them in .interop/")
    import importlib.util

    spec = importlib.util.spec_from_file_location("interop_tl", Path(__file__).resolve().parents[2] / "scripts" / "interop_tl.py")
    assert spec is not None and spec.loader is not None
    side = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(side)
    m = _causal_v3()
    st, cj, _ = interop.export_transformer_lens(m, tmp_path)
    theirs = side.run(side.load(str(st), str(cj)), [[3, 0, 1, 2]])["logits"]  # BOS (last row of W_E) then x y z
    assert m.output is not None
    ours = m.output.logits(tf.run(m, np.array([[0, 1, 2]]), "soft", tau=m.own_tau).activations[-1])
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


# --------------------------------------------------------------------------- reference check


def _imported(tmp_path: Path) -> tuple[tf.Model, Path]:
    st, _, ref = write_tracr_like(tmp_path)
    return tracr.import_tracr(st), ref


def test_reference_agreements_are_counted_separately_with_the_first_disagreement(tmp_path: Path) -> None:
    m, ref = _imported(tmp_path)
    data = json.loads(ref.read_text())
    data["cases"][3]["output"][0] = "l9"  # a planted wrong reference output: hard and soft both disagree, soft = hard still holds
    ref.write_text(json.dumps(data))
    rep = reference.compare_with_reference(m, reference.load_reference(ref, m), tau=m.own_tau or 1.0)
    assert (rep.hard_ref.agree, rep.soft_ref.agree, rep.soft_hard.agree) == (13, 13, 14)
    assert rep.hard_ref.first is not None and rep.hard_ref.first["input"] == "".join(data["cases"][3]["input"])
    assert not rep.ok


@pytest.mark.parametrize(
    "edit,msg",
    [
        (lambda d: d["cases"][0].update(input=["a", "q"]), r"cases\[0\]\.input symbol 'q' is not in the alphabet"),
        (
            lambda d: d["cases"].append({"input": ["a"] * 4, "output": ["l0"] * 4}),
            r"cases\[14\]\.input has length 4, longer than the model's position table",
        ),
        (lambda d: d["cases"][2].update(output=["l0"]), r"cases\[2\]\.output has 1 entries for an input of length 2"),
        (lambda d: d.update(alphabet=["a", "c"]), "alphabet symbol 'c' is not in the model's alphabet"),
        (lambda d: d.update(bos=None), "bos is None but the model's BOS token is 'BOS'"),
    ],
)
def test_bad_reference_tables_exit_2_one_line(tmp_path: Path, edit, msg: str) -> None:
    st, _, ref = write_tracr_like(tmp_path)
    out = tmp_path / "m.json"
    save_model(tracr.import_tracr(st), out)
    data = json.loads(ref.read_text())
    edit(data)
    ref.write_text(json.dumps(data))
    p = hardsoft("verify", "--model", str(out), "--reference", str(ref))
    assert p.returncode == 2 and p.stderr.count("\n") == 1
    import re

    assert re.search(msg, p.stderr), p.stderr


def test_verify_reference_exit_1_on_disagreement(tmp_path: Path) -> None:
    st, _, ref = write_tracr_like(tmp_path)
    out = tmp_path / "m.json"
    save_model(tracr.import_tracr(st), out)
    data = json.loads(ref.read_text())
    data["cases"][0]["output"] = ["l9"]
    ref.write_text(json.dumps(data))
    p = hardsoft("verify", "--model", str(out), "--reference", str(ref))
    assert p.returncode == 1
    assert "hard = reference: 13/14 agree; first disagreement: input 'a': expected [l9], got [l" in p.stdout


# --------------------------------------------------------------------------- rounding allowance


def test_rounding_allowance_reads_the_issue_example_as_rounding() -> None:
    """4.2e-14 measured against a bound of 1.9e-21: float64 rounding of a run of this size, said so; a real excess is not."""
    m = load_model(Path(__file__).parents[2] / "spec" / "models" / "has-a.json")
    R = tf.compute_rounding_allowance(m, n=8, tau=0.0169892, x_max=1.0, layers=1)
    assert 4.2e-14 <= R <= 1e-9  # an allowance of rounding size, nothing like eps
    text = tf.describe_error_vs_bound(4.2e-14, 1.9e-21, R)
    assert text.startswith("within the run's float64 rounding allowance R =") and "of the bound" in text
    assert tf.describe_error_vs_bound(1e-6, 1.9e-21, R).startswith("ABOVE the bound")  # planted: a real excess is reported as one
    assert tf.describe_error_vs_bound(1e-22, 1.9e-21, R) == "within the bound"
    assert tf.compute_rounding_allowance(m, 8, 0.0169892, 1.0, layers=3) == 3 * R  # each layer's rounding is carried on


def test_simulate_says_when_an_excess_is_only_the_runs_rounding(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's reading: 4.2e-14 measured against B_1 = 1.9e-21 is printed as rounding, with R; 1e-3 is printed as ABOVE."""
    from hardsoft.checks import cli
    from hardsoft.spec import bounds as bd

    monkeypatch.setattr(bd, "compute_bound_at", lambda consts, tau: [0.0, 1.9e-21])
    monkeypatch.setattr(tf, "compute_layer_errors", lambda hard, soft: [0.0, 4.2e-14])
    assert cli.main(["simulate", "--example", "has-a", "--enumerate", "8", "--tau", "0.0169892"]) == 0
    out = capsys.readouterr().out
    assert "within the run's float64 rounding allowance R =" in out and "of the bound" in out and "ABOVE" not in out
    monkeypatch.setattr(tf, "compute_layer_errors", lambda hard, soft: [0.0, 1e-3])
    assert cli.main(["simulate", "--example", "has-a", "--enumerate", "8", "--tau", "0.0169892"]) == 0
    assert "ABOVE the bound by" in capsys.readouterr().out


def test_numeric_tokens_and_labels_as_tracr_writes_them(tmp_path: Path) -> None:
    """tracr vocabularies and outputs may be numbers: hints and reference tables with numbers compare as their JSON text."""
    st, cj, ref = write_tracr_like(tmp_path)
    cfg = json.loads(cj.read_text())
    cfg["hardsoft"]["output_labels"] = [0, 1, 2]
    cfg["hardsoft"]["input_vocab"] = ["BOS", 1, 2, "compiler_pad"]
    cj.write_text(json.dumps(cfg))
    data = json.loads(ref.read_text())
    data["alphabet"] = [1, 2]
    for c in data["cases"]:
        c["input"] = [1 if x == "a" else 2 for x in c["input"]]
        c["output"] = [int(o[1:]) for o in c["output"]]
    ref.write_text(json.dumps(data))
    m = tracr.import_tracr(st)
    assert m.alphabet == ("1", "2") and m.output is not None and m.output.labels == ("0", "1", "2")
    rep = reference.compare_with_reference(m, reference.load_reference(ref, m), tau=m.own_tau or 1.0)
    assert (rep.hard_ref.agree, rep.soft_ref.agree, rep.soft_hard.agree) == (14, 14, 14)
    data["cases"][0]["output"] = [2 if data["cases"][0]["output"][0] != 2 else 0]  # planted: the number differs
    ref.write_text(json.dumps(data))
    assert reference.compare_with_reference(m, reference.load_reference(ref, m), tau=1.0).hard_ref.agree == 13


def _near_tie_file(tmp_path: Path, with_gap: bool) -> Path:
    """A float32-style near tie: 'a' scores 100 + 4.77e-5, 'b' scores 100 (tied within TIE_RTOL_FLOAT32), 'c' (if any) 0."""
    delta = 4.77e-5
    rows = [[1.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]] + ([[0.0, 0.0, 0.0, 1.0]] if with_gap else [])
    WE = np.array(rows)  # coordinates: one, is_a, out, is_c
    WQ = np.array([[10.0], [0.0], [0.0], [0.0]])
    WK = np.array([[10.0], [delta / 10.0], [0.0], [0.0]])
    WV = np.array([[0.0], [1.0], [0.0], [0.0]])
    WO = np.array([[0.0, 0.0, 1.0, 0.0]])
    layer = tf.Layer((tf.Head(WQ, WK, WV, WO),), np.zeros((4, 1)), np.zeros(1), np.zeros((1, 4)), np.zeros(4))
    alphabet = ("a", "b", "c") if with_gap else ("a", "b")
    m = tf.Model(alphabet, WE, tf.PositionEmbedding((), np.zeros((0, 4))), (layer,), tie_rtol=TIE_RTOL_FLOAT32)
    f = tmp_path / "near.json"
    save_model(m, f)
    return f


def test_temperature_with_near_ties_certifies_the_exact_part_and_says_colder_is_not_better(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hardsoft.checks import cli

    f = _near_tie_file(tmp_path, with_gap=True)
    assert cli.main(["temperature", "--model", str(f), "--n", "3", "--eps", "0.1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["tie_spread"] == pytest.approx(4.77e-5, rel=1e-6) and doc["bound_with_tie_spread"] > doc["tightest"]["certified_bound"]
    assert "NOT all certified" in doc["note"]
    assert cli.main(["temperature", "--model", str(f), "--n", "3", "--eps", "0.1"]) == 0
    assert "colder is not always better" in capsys.readouterr().out
    g = _near_tie_file(tmp_path, with_gap=False)
    assert cli.main(["temperature", "--model", str(g), "--n", "2", "--eps", "0.1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ties within tie_rtol on every input, but the ties spread up to 4.77e-05" in err
