"""Every program of the library exports: the exported model, read back from its files, decides like the program (hard and soft).

The program's own interpreter is the reference (CompiledProgram.reference), not the compiled model: the
export is frozen and its masks realised (interchange.freeze), then imported back from the written files, run
in hard mode and in soft mode at the certified attn_scale, and every compiled vector at every input position
compared with the interpreter's.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hardsoft.constructive.lang import brasp, crasp
from hardsoft.constructive.lang.library import library
from hardsoft.interchange import certificate, freeze
from hardsoft.interchange import transformer_lens as tlio
from hardsoft.spec import transformer as tf
from tests.cli_run import run_hardsoft

#: The input length the exports serve.
LENGTH = 5


@pytest.mark.parametrize("regime", ["bounded", "unbounded"])
@pytest.mark.parametrize("name", sorted(library()))
def test_a_library_program_exports_and_decides_like_the_program(tmp_path: Path, name: str, regime: str) -> None:
    ex = library()[name]
    cp = (brasp if ex.language == "brasp" else crasp).compile_program(ex.text, ex.alphabet, regime)
    m = cp.model
    n_ctx = LENGTH + (1 if freeze.needs_bos(m) else 0)
    fz = freeze.freeze(m, n_ctx)
    cert = certificate.certify_export(m, fz, 0.01)
    assert cert.certified and cert.lengths == [LENGTH] and cert.hard_decisions_agree == cert.decisions
    st, _, _ = tlio.export_transformer_lens(m, tmp_path, tau=cert.attn_scale, n_ctx=n_ctx)
    back = tlio.import_transformer_lens(st)
    w = np.concatenate(list(tf.enumerate_inputs(len(m.alphabet), LENGTH)))
    want = cp.reference(w)
    shift = back.offset
    for mode, tau in (("hard", None), ("soft", back.own_tau)):
        # every layer's activations: a compacted model's coordinate may serve a later subformula by the end
        acts = [a[:, shift:, : m.d] for a in tf.run(back, w, mode, tau=tau).activations]
        assert np.array_equal(cp.decode(acts), want), (name, regime, mode)


def test_the_export_command_says_what_it_serves_and_is_certified_for(tmp_path: Path) -> None:
    src = tmp_path / "asb.json"
    assert run_hardsoft("compile", "a S b", "--save-model", str(src)).returncode == 0
    out = tmp_path / "out"
    out.mkdir()
    p = run_hardsoft("export", str(src), "--to", "transformer-lens", "--out", str(out), "--n-ctx", "7")
    assert p.returncode == 0, p.stderr
    assert "serves inputs of exactly length 6 (the position features" in p.stdout and "BOS '<bos>' added" in p.stdout
    assert "hard(export) = hard(model) on 64/64 decisions" in p.stdout and "is certified (B_L <= 0.01)" in p.stdout
    (cj,) = out.glob("*.config.json")
    assert " " not in cj.name and ":" not in cj.name
    hints = json.loads(cj.read_text())["hardsoft"]
    assert hints["exact_length"] is True and hints["certified"]["lengths"] == [6] and hints["certified"]["certified"] is True
    p = run_hardsoft(
        "import",
        str(cj.with_name(cj.name.replace(".config.json", ".safetensors"))),
        "--from",
        "transformer-lens",
        "--out",
        str(tmp_path / "back.json"),
    )
    assert p.returncode == 0 and "inputs of exactly 6" in p.stdout, p.stderr
    p = run_hardsoft("temperature", "--model", str(tmp_path / "back.json"), "--n", "5", "--eps", "0.01")
    assert p.returncode == 2 and "serves inputs of exactly 6 symbols" in p.stderr


def test_export_bad_input_exits_2(tmp_path: Path) -> None:
    src = tmp_path / "asb.json"
    assert run_hardsoft("compile", "a S b", "--save-model", str(src)).returncode == 0
    p = run_hardsoft("export", str(src), "--to", "transformer-lens", "--out", str(tmp_path))
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "give --n-ctx" in p.stderr
    p = run_hardsoft("export", str(src), "--to", "transformer-lens", "--out", str(tmp_path), "--n-ctx", "5", "--eps", "2")
    assert p.returncode == 2 and "eps" in p.stderr
    p = run_hardsoft("export", str(src), "--to", "transformer-lens", "--out", str(tmp_path / "nope"), "--n-ctx", "5")
    assert p.returncode == 2 and "does not exist" in p.stderr
    assert sorted(x.name for x in tmp_path.iterdir()) == ["asb.json"]


def test_beyond_the_enumeration_limit_the_export_needs_a_tau_and_says_it_is_not_certified(tmp_path: Path) -> None:
    src = tmp_path / "asb.json"
    assert run_hardsoft("compile", "a S b", "--save-model", str(src)).returncode == 0
    out = tmp_path / "out"
    out.mkdir()
    p = run_hardsoft("export", str(src), "--to", "transformer-lens", "--out", str(out), "--n-ctx", "7", "--verify-up-to", "3")
    assert p.returncode == 2 and "give --tau to export without a certificate" in p.stderr and not list(out.iterdir())
    p = run_hardsoft("export", str(src), "--to", "transformer-lens", "--out", str(out), "--n-ctx", "7", "--verify-up-to", "3", "--tau", "0.01")
    assert p.returncode == 0 and "NOT verified nor certified" in p.stdout, p.stderr
    (cj,) = out.glob("*.config.json")
    cert = json.loads(cj.read_text())["hardsoft"]["certified"]
    assert cert["lengths"] == [] and cert["certified"] is False and cert["attn_scale"] == 0.01
