"""The size presets of ``hardsoft check``, defined once for the whole project.

``tiny`` is what CI runs (every family in a few minutes on two cores); ``paper`` goes as far
as is useful (about half an hour).  Every family reads its budget from here; the SMT checks
name their per-preset bounds beside their encodings, keyed by these names.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The preset names, in order of cost.
PRESET_NAMES: tuple[str, ...] = ("tiny", "paper")


@dataclass(frozen=True)
class Preset:
    """The budgets of one preset: the fuzz family's examples per property and the verify family's sizes."""

    name: str
    fuzz_examples: int  # Hypothesis examples per property search
    verify_stride: int  # every stride-th formula of the generated family
    verify_max_len: int  # strings of every length 1..verify_max_len
    theorem26_lengths: tuple[int, ...]  # the lengths of the Theorem 26 table


PRESETS: dict[str, Preset] = {
    "tiny": Preset("tiny", fuzz_examples=150, verify_stride=7, verify_max_len=7, theorem26_lengths=(4, 6, 8)),
    "paper": Preset("paper", fuzz_examples=2000, verify_stride=1, verify_max_len=10, theorem26_lengths=(4, 6, 8, 10, 12)),
}
assert tuple(PRESETS) == PRESET_NAMES


def get_preset(name: str) -> Preset:
    """Return the preset called ``name`` (ValueError naming the known presets otherwise)."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; expected one of {', '.join(PRESET_NAMES)}")
    return PRESETS[name]
