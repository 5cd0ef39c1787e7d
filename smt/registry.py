"""The one list of SMT checks: every encoding module's ``CHECKS``, in report order (smt/check.py says how to add one).

Checked on import: names are unique, every check has settings for every preset of
spec.presets.PRESET_NAMES with the required keys and no unknown ones, each preset bound lies
in the check's size range (a symbolic check's range is the one size 1), and every assumed lemma is a statement check of this list.
"""

from __future__ import annotations

from types import ModuleType

from hardsoft.smt import c_composition, e_softmax, errata, heads, p_layer, prec_rounding, s_lipschitz, z_ziggurat
from hardsoft.smt.check import REQUIRED_SETTINGS, SETTINGS, Expect, SmtCheck
from hardsoft.spec.presets import PRESET_NAMES

#: The encoding modules whose CHECKS make up the list, in report order.
MODULES: tuple[ModuleType, ...] = (e_softmax, z_ziggurat, s_lipschitz, p_layer, c_composition, errata, heads, prec_rounding)


def validate(checks: tuple[SmtCheck, ...]) -> list[str]:
    """Return the problems of a list of checks (empty when it is sound; see the module docstring)."""
    problems = []
    names = [c.name for c in checks]
    problems += [f"duplicate SMT check {n}" for n in sorted({n for n in names if names.count(n) > 1})]
    for c in checks:
        if tuple(c.presets) != PRESET_NAMES:
            problems.append(f"{c.name}: presets {tuple(c.presets)}, expected {PRESET_NAMES}")
        for p, st in c.presets.items():
            if missing := REQUIRED_SETTINGS - set(st):
                problems.append(f"{c.name} ({p}): missing settings {sorted(missing)}")
            if unknown := set(st) - SETTINGS:
                problems.append(f"{c.name} ({p}): unknown settings {sorted(unknown)}")
            if "bound" in st and not c.min_size <= st["bound"] <= c.max_size:
                problems.append(f"{c.name} ({p}): bound {st['bound']} outside {c.min_size}..{c.max_size}")
        if c.symbolic and not c.min_size == c.max_size == 1:
            problems.append(f"{c.name}: a symbolic check runs one query set (size 1), not {c.min_size}..{c.max_size}")
        for lem in c.assumes:
            lemma_check = next((d for d in checks if d.name == lem.check), None)
            if lemma_check is None:
                problems.append(f"{c.name}: assumed lemma {lem.label} names no check ({lem.check})")
            elif lemma_check.expect is not Expect.PROVED:
                problems.append(f"{c.name}: assumed lemma {lem.label} is not a statement check ({lem.check})")
            if any(lem.needs not in st for st in c.presets.values()):
                problems.append(f"{c.name}: lemma {lem.label} needs setting {lem.needs!r} in every preset")
    return problems


#: Every SMT check, in report order.
CHECKS: tuple[SmtCheck, ...] = tuple(c for m in MODULES for c in m.CHECKS)
if _problems := validate(CHECKS):
    raise ValueError("the SMT check definitions are inconsistent: " + "; ".join(_problems))


def by_name(checks: tuple[SmtCheck, ...] | None = None) -> dict[str, SmtCheck]:
    """Return the checks (default: CHECKS, read at call time) keyed by name."""
    return {c.name: c for c in (CHECKS if checks is None else checks)}


def get(name: str) -> SmtCheck:
    """Return the check called ``name`` (ValueError naming the known checks otherwise)."""
    table = by_name()
    if name not in table:
        raise ValueError(f"unknown SMT check {name!r}; known: {', '.join(table)}")
    return table[name]


__all__ = ["CHECKS", "MODULES", "by_name", "get", "validate"]
