"""The README's short tour stays real: each ``$ hardsoft ...`` command in its console blocks is run (in a scratch folder,
in this process) and every output line shown (``...`` marks lines left out) appears in the command's output, in order,
timings aside."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.cli_run import run_hardsoft

ROOT = Path(__file__).resolve().parents[2]
#: A timing in an output line ("0.23 s", "(1.27 s,"): compared as any number.
SECONDS = re.compile(r"\d+(\.\d+)? s\b")


def tour_commands(text: str) -> list[tuple[str, list[str]]]:
    """Return each ``$ hardsoft`` command of the README's console blocks with the output lines shown under it."""
    out: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        current: tuple[str, list[str]] | None = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = (line[2:], []) if line.startswith("$ hardsoft ") else None
                if current is not None:
                    out.append(current)
            elif current is not None and line.strip() != "...":
                current[1].append(line)
    return out


def _mask(line: str) -> str:
    return SECONDS.sub("# s", line.rstrip())


COMMANDS = tour_commands((ROOT / "README.md").read_text())


def test_the_tour_has_its_commands() -> None:
    assert len(COMMANDS) >= 5 and any("--sample" in c for c, _ in COMMANDS)


def _run_as_shown(tmp_path: Path, commands: list[tuple[str, list[str]]]) -> None:
    (tmp_path / "spec").symlink_to(ROOT / "spec")
    for command, shown in commands:
        words = shlex.split(command.split("#")[0] if " # " in command else command)
        target = None
        if ">" in words:
            k = words.index(">")
            words, target = words[:k], words[k + 1]
        p = run_hardsoft(*words[1:], cwd=tmp_path)
        assert p.returncode == 0, (command, p.stderr)
        if target is not None:
            (tmp_path / target).write_text(p.stdout)
        got = [_mask(line) for line in p.stdout.splitlines()]
        k = 0
        for line in shown:
            want = _mask(line)
            while k < len(got) and got[k] != want:
                k += 1
            if k == len(got):
                pytest.fail(f"{command}: the README shows {line!r}, not in the output:\n{p.stdout}")
            k += 1


def test_the_tour_runs_as_shown(tmp_path: Path) -> None:
    _run_as_shown(tmp_path, [c for c in COMMANDS if not c[0].startswith("hardsoft certify")])


@pytest.mark.lean
@pytest.mark.xdist_group("lean")  # Lean checks the certificate: with the other Lean tests, on one worker
def test_the_tour_certify_runs_as_shown(tmp_path: Path) -> None:
    certify = [c for c in COMMANDS if c[0].startswith("hardsoft certify")]
    assert certify
    _run_as_shown(tmp_path, certify)
