"""``hardsoft compile/verify --lang brasp|crasp (PROGRAM | --file F)`` and ``hardsoft examples``: output, exit codes, bad input one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_run import run_cli as _run
from hardsoft.constructive.lang.library import library


def test_compile_brasp_program_and_verify(capsys) -> None:
    code, out, err = _run(capsys, "compile", "--lang", "brasp", "p = rightmost past [Q_a@j] true default false\noutput p", "--verify-up-to", "5")
    assert code == 0, err
    assert out.startswith("program   brasp, output p") and "verified  OK: 62 words" in out and "against the brasp interpreter" in out


def test_compile_crasp_file_json(capsys, tmp_path: Path) -> None:
    f = tmp_path / "maj.crasp"
    f.write_text(library()["majority"].text)
    code, out, err = _run(capsys, "compile", "--lang", "crasp", "--file", str(f), "--regime", "unbounded", "--verify-up-to", "4", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["language"] == "crasp" and doc["vectors"] == ["more"] and doc["omitted"] == ["ca", "cb"]
    assert doc["verification"]["ok"] and doc["temperature"] == "tau(n) = 1"


def test_compile_saves_the_model(capsys, tmp_path: Path) -> None:
    out_file = tmp_path / "m.json"
    code, out, err = _run(capsys, "compile", "--lang", "brasp", "--file", _library_file(tmp_path, "no_bb"), "--save-model", str(out_file))
    assert code == 0, err
    assert out_file.is_file() and f"saved     {out_file}" in out
    code, out, err = _run(capsys, "simulate", "--model", str(out_file), "--inputs", "abab", "abba", "--tau", "0.05")
    assert code == 0, err


def _library_file(tmp_path: Path, name: str) -> str:
    ex = library()[name]
    f = tmp_path / f"{name}.{ex.language}"
    f.write_text(ex.text)
    return str(f)


def test_verify_lang_file(capsys, tmp_path: Path) -> None:
    code, out, err = _run(capsys, "verify", "--lang", "crasp", "--file", _library_file(tmp_path, "dyck1"), "--up-to", "6")
    assert code == 0, err
    assert "hard: all agree; soft: all agree" in out


def test_tl_stays_the_default(capsys) -> None:
    code, out, err = _run(capsys, "compile", "a S b")
    assert code == 0, err and out.startswith("formula   a S b")
    code, out, err = _run(capsys, "verify", "a S b", "--up-to", "4")
    assert code == 0, err


@pytest.mark.parametrize(
    "args, message",
    [
        (["compile", "--lang", "brasp", "x = Q_a Q_b\noutput x"], "cannot parse the brasp program: line 1, column 9: expected"),
        (["compile", "--lang", "brasp", "x = y\noutput x"], "line 1, column 5: 'y' is not bound"),
        (["compile", "--lang", "brasp", "x = y\ny = x\noutput x"], "line 2, column 5: the vectors form a cycle"),
        (["compile", "--lang", "crasp", "x = Q_a + 1\noutput x"], "line 1, column 5: '+' needs a count, got a Boolean"),
        (["compile", "--lang", "crasp", "x = #[Q_a] > 1" + "0" * 400 + "\noutput x"], "above the bound 1000000"),
        (["compile", "--lang", "crasp", "x = #[Q_c] > 1\noutput x"], "line 1, column 7: the program reads token vectors of c, not in the alphabet"),
        (["compile", "--lang", "brasp", "--file", "/no/such/file"], "--file /no/such/file: No such file or directory"),
        (["compile", "--lang", "brasp", "--file", "/no/such/file", "x = Q_a"], "not allowed with argument"),
        (["compile", "--lang", "rasp", "x"], "invalid choice"),
        (["verify", "--lang", "brasp", "x = Q_a\noutput", "--up-to", "3"], "expected a name, got end of input"),
        (["examples", "--show", "nope"], "--show 'nope': no such program"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, args: list[str], message: str) -> None:
    code, out, err = _run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("hardsoft: error: ") and err.count("\n") == 1 and message in err, err


def test_a_mismatch_exits_1(capsys, monkeypatch) -> None:
    # The planted defect: the B-RASP interpreter answers leftmost where the program says rightmost.
    from hardsoft.constructive.lang import brasp

    real = brasp.interpret_word

    def wrong(p, word):
        flipped = brasp.Program(tuple(type(s)(s.name, "leftmost", *list(vars(s).values())[2:]) if isinstance(s, brasp.Attend) else s
                                      for s in p.statements), p.output)
        return real(flipped, word)

    monkeypatch.setattr(brasp, "interpret_word", wrong)
    code, out, err = _run(capsys, "compile", "--lang", "brasp", "p = rightmost past [true] Q_a default false\noutput p", "--verify-up-to", "4")
    assert code == 1 and "verified  MISMATCH" in out


def test_examples_lists_every_program_and_shows_one(capsys) -> None:
    from hardsoft.constructive.srasp.library import library_names, library_text

    code, out, err = _run(capsys, "examples")
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == len(library()) + len(library_names())
    assert any(ln.startswith("majority") and " crasp " in ln for ln in lines)
    assert any(ln.startswith("dyck2") and " srasp " in ln for ln in lines)
    code, out, err = _run(capsys, "examples", "--show", "dyck1_depth2")
    assert code == 0 and out == library()["dyck1_depth2"].text
    code, out, err = _run(capsys, "examples", "--show", "dyck2")
    assert code == 0 and out == library_text("dyck2")
    code, out, err = _run(capsys, "examples", "--json")
    assert {(r["name"], r["language"]) for r in json.loads(out)} == {(n, x.language) for n, x in library().items()} | {
        (n, "srasp") for n in library_names()}
    # a name on both shelves needs --lang
    code, out, err = _run(capsys, "examples", "--show", "majority")
    assert code == 2 and "add --lang" in err and err.count("\n") == 1
    code, out, err = _run(capsys, "examples", "--show", "majority", "--lang", "srasp")
    assert code == 0 and out == library_text("majority")


# --------------------------------------------------------------------------- S-RASP (its own compiler)


def test_compile_and_verify_srasp_library_program(capsys, tmp_path: Path) -> None:
    from hardsoft.constructive.srasp.library import library_text

    f = tmp_path / "dyck1.srasp"
    f.write_text(library_text("dyck1"))
    model = tmp_path / "d1.json"
    code, out, err = _run(capsys, "compile", "--lang", "srasp", "--file", str(f), "--verify-up-to", "6", "--save-model", str(model))
    assert code == 0, err
    assert out.startswith("program   srasp dyck-1") and "verified  OK: dyck-1: 126 words of length 1..6" in out and model.is_file()
    code, out, err = _run(capsys, "verify", "--lang", "srasp", "--file", str(f), "--up-to", "5", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["ok"] and doc["words"] == 62 and doc["wrong_cells"] == 0


def test_srasp_mismatch_exits_1(capsys, tmp_path: Path, monkeypatch) -> None:
    # The planted defect: the interpreter the verification compares with says the opposite for one definition.
    from hardsoft.constructive.srasp import verify as sv
    from hardsoft.constructive.srasp.library import library_text

    real = sv.interpret

    def wrong(prog, word):
        out = real(prog, word)
        name = next(n for n, v in out.items() if all(x in (0, 1) for x in v))
        out[name] = [1 - x for x in out[name]]
        return out

    monkeypatch.setattr(sv, "interpret", wrong)
    f = tmp_path / "maj.srasp"
    f.write_text(library_text("majority"))
    code, out, err = _run(capsys, "verify", "--lang", "srasp", "--file", str(f), "--up-to", "3")
    assert code == 1 and "wrong cells" in out, (out, err)


@pytest.mark.parametrize("args, message", [
    (["compile", "--lang", "srasp", 'program "x"\nalphabet "a"\nA = token("a")\nB = A + 1\noutput B'], "line 5, column 8"),
    (["compile", "--lang", "srasp", 'program "x"\nalphabet "a"\nA = token("a")\noutput "a" if Z, else "a"'], "not defined"),
    (["compile", "--lang", "srasp", "--alphabet", "xy", 'program "x"\nalphabet "a"\nA = token("a")\noutput "a" if A, else "b"'],
     "declares the alphabet a; got --alphabet x,y"),
    (["verify", "--lang", "srasp", "--up-to", "30", 'program "x"\nalphabet "a" "b"\nA = token("a")\noutput "a" if A, else "b"'], "limit 2,000,000"),
    (["verify", "--lang", "srasp", "--modes", "hard", "--up-to", "3", 'program "x"\nalphabet "a"\nA = token("a")\noutput "a" if A, else "b"'],
     "verifies hard and soft together"),
    (["compile", "--lang", "srasp", 'program "x"\nalphabet "a"\nA = token("a")\ns = psum(A)\nv = rightmost j with s[j] < s[i] value A default A\n'
      'output "a" if v, else "b"'], "by < compiles only when its key or its query is bounded by a constant C <= 16 (one-hot)"),
    (["compile", "--lang", "srasp", "--regime", "unbounded", 'program "x"\nalphabet "a"\nA = token("a")\noutput "a" if A, else "b"'],
     "S-RASP compiles with its own average-hard encoding"),
])
def test_srasp_bad_input_is_one_line_exit_2(capsys, args: list[str], message: str) -> None:
    code, out, err = _run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("hardsoft: error: ") and err.count("\n") == 1 and message in err, err
