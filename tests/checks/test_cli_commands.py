"""The command modules of ``hardsoft`` (checks/commands/): register/run, --help, the shared argument types, exit codes incl. 4 (internal error)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from hardsoft.checks import cli, runner
from hardsoft.checks.commands import table
from hardsoft.constructive.logic import REGIMES

#: The subcommands `hardsoft --help` listed before the one-module-per-command layout (none may go missing).
SUBCOMMANDS = ("check", "temperature", "simulate", "compile", "certify", "verify", "examples", "import", "export", "table", "constructions", "audit", "install-lean")


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(args))
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_command_module_has_register_and_run() -> None:
    assert len(set(cli.COMMANDS)) == len(cli.COMMANDS)
    for module in cli.COMMANDS:
        assert callable(module.register) and callable(module.run), module.__name__
    parsers = _subcommands(cli.build_parser())
    assert tuple(parsers) == SUBCOMMANDS
    # each command's parser runs its own module's run
    by_name = {getattr(m, "NAME", m.__name__.rsplit(".", 1)[1].replace("_", "-")): m for m in cli.COMMANDS}
    for name, p in parsers.items():
        run = p.get_default("func") if name != "audit" else _subcommands(p)["precision"].get_default("func")
        assert run is by_name[name].run, name


@pytest.mark.parametrize("argv", [[c, "--help"] for c in SUBCOMMANDS] + [["audit", "precision", "--help"], ["--help"]])
def test_help_exits_0(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _main(capsys, *argv)
    assert code == 0 and "usage: hardsoft" in out and err == ""


def test_top_level_help_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _main(capsys, "--help")
    codes = (runner.EXIT_OK, runner.EXIT_FAILED, runner.EXIT_BAD_INPUT, runner.EXIT_UNDECIDED, runner.EXIT_INTERNAL)
    assert codes == (0, 1, 2, 3, 4)
    for code, word in zip(codes, ("ok", "failed", "bad input", "could not be decided", "internal error")):
        assert any(line.strip().startswith(f"{code} ") and word in line for line in out.splitlines()), (code, out)
    assert "--debug" in out


def _planted(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(args: argparse.Namespace) -> int:
        raise RuntimeError("planted\nbug")

    monkeypatch.setattr(table, "run", boom)


def test_internal_error_is_one_line_exit_4(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _planted(monkeypatch)
    code, out, err = _main(capsys, "table")
    assert code == runner.EXIT_INTERNAL == 4 and out == ""
    assert err == "hardsoft: internal error: RuntimeError: planted bug (please report this; rerun with --debug for the traceback)\n"
    with pytest.raises(RuntimeError, match="planted"):
        cli.main(["--debug", "table"])


_PLANTED_SCRIPT = """
import sys
from hardsoft.checks import cli
from hardsoft.checks.commands import table
def boom(args):
    raise RuntimeError("planted bug")
table.run = boom
sys.exit(cli.main(sys.argv[1:]))
"""


def test_internal_error_in_a_process_and_debug_traceback() -> None:
    p = subprocess.run([sys.executable, "-c", _PLANTED_SCRIPT, "table"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 4 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr and "hardsoft: internal error: RuntimeError: planted bug" in p.stderr
    p = subprocess.run([sys.executable, "-c", _PLANTED_SCRIPT, "--debug", "table"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "Traceback (most recent call last)" in p.stderr and "RuntimeError: planted bug" in p.stderr
    assert "internal error" not in p.stderr


def test_value_error_is_still_bad_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def bad(args: argparse.Namespace) -> int:
        raise ValueError("no such thing")

    monkeypatch.setattr(table, "run", bad)
    assert _main(capsys, "--debug", "table") == (2, "", "hardsoft: error: no such thing\n")


# --------------------------------------------------------------------------- the shared argument types


@pytest.mark.parametrize("spelling", ["xy", "x,y", "x, y"])
def test_compile_alphabet_both_spellings(spelling: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _main(capsys, "compile", "x S y", "--alphabet", spelling, "--verify-up-to", "3", "--workers", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["alphabet"] == ["x", "y"] and doc["verification"]["ok"] and doc["verification"]["words"] == 2 + 4 + 8


@pytest.mark.parametrize("spelling", ["xy", "x,y", "x, y"])
def test_verify_alphabet_both_spellings(spelling: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _main(capsys, "verify", "x S y", "--alphabet", spelling, "--up-to", "3", "--workers", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["alphabet"] == ["x", "y"] and doc["ok"] and doc["strings"] == 2 + 4 + 8


@pytest.mark.parametrize("command", [["compile", "foo S bar", "--verify-up-to", "3"], ["verify", "foo S bar", "--up-to", "3"]])
def test_multi_character_symbols_need_commas(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _main(capsys, *command, "--alphabet", "foo,bar", "--workers", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["alphabet"] == ["foo", "bar"]
    code, out, err = _main(capsys, *command, "--alphabet", "foobar", "--workers", "1")
    assert code == 2 and err.startswith("hardsoft: error:") and "repeats a symbol" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", [["compile", "a"], ["verify", "a", "--up-to", "2"]])
@pytest.mark.parametrize("alphabet, message", [("aa", "repeats a symbol"), ("a,a", "repeats a symbol"), ("a,", "empty symbol"), ("", "empty symbol")])
def test_bad_alphabet_in_both_commands(command: list[str], alphabet: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _main(capsys, *command, "--alphabet", alphabet)
    assert code == 2 and out == "" and err.startswith("hardsoft: error:") and message in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["compile", "verify"])
def test_alphabet_and_regime_documented_in_help(command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # no line wrapping inside the phrases
    _, out, _ = _main(capsys, command, "--help")
    flat = " ".join(out.split())
    assert "'ab' (one letter per symbol) or 'a,b' (comma-separated" in flat
    assert "{" + ",".join(REGIMES) + "}" in flat


@pytest.mark.parametrize("regime", REGIMES)
def test_regime_choices_are_the_compilers(regime: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _main(capsys, "compile", "a S b", "--regime", regime, "--json")
    assert code == 0 and json.loads(out)["regime"] == regime, err


@pytest.mark.parametrize("argv, message", [
    (["verify", "--example", "has-a", "--up-to", "2", "--workers", "0"], "--workers must be >= 1, got 0"),
    (["compile", "a", "--workers", "two"], "--workers must be an integer >= 1, got 'two'"),
    (["simulate", "--example", "has-a", "--enumerate", "-3", "--tau", "1"], "--enumerate must be >= 1, got -3"),
    (["constructions", "--max-n", "1.5"], "--max-n must be an integer >= 1, got '1.5'"),
    (["audit", "precision", "--samples", "0"], "--samples must be >= 1, got 0"),
    (["temperature", "--n", "0", "--gap", "1", "--xmax", "1", "--depth", "1", "--K", "1", "--R", "1", "--eps", "0.5"], "--n must be >= 1"),
])
def test_positive_int_is_one_type_everywhere(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _main(capsys, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
