"""benchmarks/precision.py: the measured float32 breakdown of a 1/n^3 gap agrees with the rounding prediction."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "precision.py"


def test_float32_breakdown_matches_prediction() -> None:
    p = subprocess.run([sys.executable, str(SCRIPT), "--max-log2n", "10", "--per-octave", "2"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    m = re.search(r"float32: predicted breakdown n >= (\d+) .*measured first n with winner weight < 1/2: (\d+)", p.stdout)
    assert m is not None, p.stdout
    assert m.group(1) == "323" and m.group(2) == "323"  # 1/n^3 <= 2^-25 first at n = 323 (322^3 < 2^25 < 323^3)
    assert "float64: predicted breakdown n >= 262144" in p.stdout and "none up to 2^10" in p.stdout


def test_bad_arguments_exit_2() -> None:
    p = subprocess.run([sys.executable, str(SCRIPT), "--max-log2n", "40"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "--max-log2n must be in [2, 24]" in p.stderr
