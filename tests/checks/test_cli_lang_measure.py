"""``hardsoft temperature --lang L PROGRAM`` and ``hardsoft constructions --lang L PROGRAM``: a user's program measured like a model or a built-in construction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_run import run_cli as _run
from hardsoft.constructive.lang.library import library
from hardsoft.constructive.srasp.library import library_text

FIRST_A = "p = leftmost all [true] Q_a default false\noutput p"
LAST_B = "p = rightmost past [Q_a@j] true default false\nq = p & Q_b\noutput q"


def _file(tmp_path: Path, name: str, text: str) -> str:
    f = tmp_path / name
    f.write_text(text)
    return str(f)


def _temperature(capsys, *src: str, n: int = 5) -> dict:
    code, out, err = _run(capsys, "temperature", *src, "--n", str(n), "--eps", "0.1", "--json")
    assert code == 0, err
    return json.loads(out)


CASES = [
    ("tl", "a S b"),
    ("brasp", LAST_B),
    ("crasp", library()["majority"].text),
    ("srasp", library_text("majority")),
]


@pytest.mark.parametrize("lang, text", CASES, ids=[c[0] for c in CASES])
def test_temperature_of_a_program_is_the_saved_models(capsys, tmp_path: Path, lang: str, text: str) -> None:
    f = _file(tmp_path, f"p.{lang}", text)
    saved = tmp_path / "m.safetensors"
    code, out, err = _run(capsys, "compile", "--lang", lang, "--file", f, "--save-model", str(saved))
    assert code == 0, err
    by_model = _temperature(capsys, "--model", str(saved))
    by_program = _temperature(capsys, "--lang", lang, "--file", f)
    for key in ("gap", "x_max", "depth", "measured_over_inputs"):
        assert by_program[key] == by_model[key], key
    assert by_program["tightest"] == by_model["tightest"] and by_program["sufficient"] == by_model["sufficient"]
    assert by_model["construction_rule"] is None and by_program["construction_rule"]["tau"] > 0


def test_temperature_of_another_programs_model_differs(capsys, tmp_path: Path) -> None:
    # The planted wrong result: the saved model of a different program. The comparison above must be able to fail.
    saved = tmp_path / "m.safetensors"
    code, _, err = _run(capsys, "compile", "--lang", "brasp", FIRST_A, "--save-model", str(saved))
    assert code == 0, err
    other = _temperature(capsys, "--model", str(saved))
    mine = _temperature(capsys, "--lang", "brasp", LAST_B)
    assert other["tightest"]["tau"] != mine["tightest"]["tau"]


def test_temperature_prints_the_compilers_rule(capsys) -> None:
    code, out, err = _run(capsys, "compile", "--lang", "brasp", LAST_B, "--json")
    assert code == 0, err
    c = json.loads(out)["c"]
    doc = _temperature(capsys, "--lang", "brasp", LAST_B, n=6)
    assert doc["construction_rule"]["rule"] == json.loads(out)["temperature"]
    assert doc["construction_rule"]["tau"] == pytest.approx(c / 6, rel=1e-12)
    assert doc["construction_rule"]["gap"] == pytest.approx(1 / 6, rel=1e-12)
    code, out, err = _run(capsys, "temperature", "--lang", "brasp", LAST_B, "--n", "6", "--eps", "0.1")
    assert code == 0 and f"the construction's own rule (as 'hardsoft compile' prints it): tau(n) = {c:.6g}/n" in out


def test_temperature_of_an_srasp_program_prints_its_rule(capsys) -> None:
    from hardsoft.constructive.srasp import tau_for

    doc = _temperature(capsys, "--lang", "srasp", library_text("majority"), n=6)
    assert doc["construction_rule"]["tau"] == pytest.approx(tau_for(6), rel=1e-12)
    assert doc["construction_rule"]["rule"].startswith("tau(n) = 1/(n ln(128 S n^3))")


@pytest.mark.parametrize(
    "args, message",
    [
        (["temperature", "--lang", "brasp", "p = \noutput p", "--n", "4", "--eps", "0.1"], "cannot parse the brasp program: line 1, column 5"),
        (["temperature", "--lang", "rasp", "p", "--n", "4", "--eps", "0.1"], "invalid choice"),
        (["temperature", "--lang", "brasp", LAST_B, "--n", "40", "--eps", "0.1"], "2^40 = 1.1e+12 inputs (limit 4194304), estimated"),
        (["temperature", "--lang", "brasp", "--K", "1", "--R", "1", "--n", "4", "--eps", "0.1"], "--lang goes with a program"),
        (["temperature", "a S b", "--model", "m.safetensors", "--n", "4", "--eps", "0.1"], "not allowed with argument"),
        (["temperature", "a S b", "--R", "1", "--n", "4", "--eps", "0.1"], "--R goes with --K, not with a program"),
        (["temperature", "--lang", "srasp", library_text("majority"), "--regime", "unbounded", "--n", "4", "--eps", "0.1"], "--regime unbounded"),
        (["temperature", "--lang", "crasp", "x = #[Q_a] > 1" + "0" * 400 + "\noutput x", "--n", "4", "--eps", "0.1"], "above the bound"),
        (["constructions", "--lang", "brasp", "p = \noutput p"], "cannot parse the brasp program"),
        (["constructions", "--lang", "brasp"], "--lang goes with a program"),
        (["constructions", "--lang", "brasp", LAST_B, "--only", "flip-flop"], "--only names built-in constructions"),
        (["constructions", "--lang", "brasp", "p = Q_a\noutput p", "--alphabet", "a,bb"], "one-character symbols"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, tmp_path: Path, args: list[str], message: str) -> None:
    code, out, err = _run(capsys, *args, *(["--out", str(tmp_path / "r")] if args[0] == "constructions" else []))
    assert code == 2 and out == ""
    assert err.startswith("hardsoft: error: ") and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    "lang, text, extra, max_n",
    [("brasp", LAST_B, ["--alphabet", "abc"], 11), ("srasp", library_text("shift_right"), [], 6)],
    ids=["brasp", "srasp"],
)
def test_constructions_measures_a_program_in_the_report_format(capsys, tmp_path: Path, lang: str, text: str, extra: list[str], max_n: int) -> None:
    out_dir = tmp_path / "r"
    f = _file(tmp_path, f"p.{lang}", text)
    code, out, err = _run(
        capsys, "constructions", "--lang", lang, "--file", f, *extra, "--max-n", str(max_n), "--samples", "4", "--out", str(out_dir)
    )
    assert code == 0, err
    doc = json.loads((out_dir / "constructions.json").read_text())
    name = f"{lang}-p"
    assert doc["all_decided"] and list(doc["constructions"]) == [name]
    rows = doc["rows"]
    assert [r["n"] for r in rows][-1] == max_n and all(r["construction"] == name for r in rows)
    assert all(r["wrong_hard"] == 0 and r["wrong_soft"] == 0 for r in rows)
    assert all(r["gap_measured"] >= r["gap_claimed"] * (1 - 1e-9) for r in rows)
    assert rows[0]["exhaustive"] and rows[-1]["exhaustive"] == (lang == "srasp")  # 3^11 words: sampled
    assert (out_dir / "constructions.md").read_text().startswith("# Constructions: gap and temperatures")
    assert (out_dir / f"attention-{name}.png").is_file() and "every tested input decided" in out


def test_constructions_catches_a_wrong_interpreter(capsys, tmp_path: Path, monkeypatch) -> None:
    # The planted defect: the B-RASP interpreter negates the output; the sweep must report wrong inputs and exit 1.
    from hardsoft.constructive.lang import brasp

    real = brasp.interpret

    def wrong(p, inputs, alphabet):
        vals = dict(real(p, inputs, alphabet))
        vals[p.output] = ~vals[p.output].astype(bool)
        return vals

    monkeypatch.setattr(brasp, "interpret", wrong)
    code, out, err = _run(capsys, "constructions", "--lang", "brasp", LAST_B, "--max-n", "4", "--out", str(tmp_path / "r"))
    assert code == 1 and "SOME INPUT DECIDED WRONGLY" in out


def test_the_builtin_names_keep_working(capsys, tmp_path: Path) -> None:
    code, out, err = _run(capsys, "constructions", "--only", "flip-flop", "--max-n", "4", "--out", str(tmp_path / "r"))
    assert code == 0, err
    assert list(json.loads((tmp_path / "r" / "constructions.json").read_text())["constructions"]) == ["flip-flop"]


def test_the_batch_reference_is_the_per_word_one() -> None:
    # Construction.reference_codes takes the batch route when given; it must equal the per-word reference everywhere.
    import numpy as np

    from hardsoft.checks.engine.programs import compile_text
    from hardsoft.constructive.lang.construction import construction_of_program
    from hardsoft.spec.transformer import enumerate_inputs

    con = construction_of_program(compile_text("crasp", library()["dyck1"].text, ("a", "b"), "bounded"), "dyck1")
    assert con.reference_batch is not None
    seen = set()
    for n in range(1, 7):
        w = np.concatenate(list(enumerate_inputs(2, n)))
        per_word = np.array([[con.outputs.index(o) for o in con.reference("".join("ab"[c] for c in row))] for row in w])
        assert (con.reference_codes(w) == per_word).all()
        seen |= set(per_word.ravel().tolist())
    assert seen == {0, 1}  # both outputs occur: the comparison is not between two constant tables
