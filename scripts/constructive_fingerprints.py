"""Fingerprint every model the constructive package builds, to show a refactor changed no weight.

Builds every construction of ``constructive.applications.CONSTRUCTIONS``, compiles a fixed list
of temporal-logic formulas in both regimes (hand-picked ones and a slice of the generated family,
``checks.engine.formulas.sample_formulas``) and the S-RASP Dyck-k programs k = 1, 2, 3, and writes,
per model, its weights exactly (every float as its hex representation, so the comparison is
bit-for-bit), its position-embedding features, every head's mask and hard mode, the model's hard
mode and read-out, and the compiler's coordinate maps.

    python scripts/constructive_fingerprints.py OUT.json            # write the fingerprints
    python scripts/constructive_fingerprints.py OUT.json --compare BASE.json   # and compare with BASE (exit 1 on a difference)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from hardsoft.checks.engine.formulas import sample_formulas
from hardsoft.constructive import applications as apps
from hardsoft.constructive import heads as hd
from hardsoft.constructive import logic as lg
from hardsoft.spec.transformer import Model

try:  # after the refactor the S-RASP package re-exports its public names
    from hardsoft.constructive import srasp as sr

    sr.compile_program  # noqa: B018
except AttributeError:  # before: one module
    from hardsoft.constructive.srasp import compiler as sr  # type: ignore[no-redef]

#: Hand-picked formulas (tests/constructive/test_logic_compiler.py) covering Y, X, S, U, counts, first/last, nested Booleans.
HANDPICKED = (
    "first & X last",
    "Y Y Y a | X X b",
    "(a | first) S (X b)",
    "!(a S (Y b)) & #<[a] > #<[b]",
    "#<[Y a] >= 2*#<[b] - 1",
    "!(#>[a S b] < #>[b])",
    "(#<[a] > 0) U last",
    "#<[a] > #<[a]",
    "true S !false",
    "(a U b) S (b U a)",
    "X (a & Y b) | Y (b & X a)",
    "#>[#>[a] > #>[b]] <= 1",
    "a S Y b",
    "(a S b) & #<[a] > #<[b] | X a U b",
    "Y a & X b",
    "#>[a] >= 2",
    "(a U b) | Y Y a",
    "(Y a) S (#<[a] > #<[b])",
    "((Y a) S (b & !X a)) | (#<[a] > #<[b] & (a U last))",
    "a",
    "!a & (b | first)",
    "((a & !b) | (Y a & X b)) & !(last | (a S b))",
    "#<[a] > #>[b]",  # mixes past and future counts: lookups over positions
)


def _hex(a: np.ndarray) -> list[Any]:
    """Return an array's shape and every entry as float.hex (bit-exact)."""
    a = np.asarray(a, dtype=np.float64)
    return [list(a.shape), [float(v).hex() for v in a.ravel()]]


def model_fingerprint(m: Model) -> dict[str, Any]:
    """Return everything that defines a model: weights bit-exactly, position features, masks, hard modes, read-out."""
    return {
        "name": m.name,
        "alphabet": list(m.alphabet),
        "hard_mode": m.hard_mode,
        "WE": _hex(m.WE),
        "PE.features": list(m.PE.features),
        "PE.matrix": _hex(m.PE.matrix),
        "readout": None if m.readout is None else [m.readout.coordinate, m.readout.position, float(m.readout.threshold).hex()],
        "layers": [
            {
                "heads": [
                    {"W_Q": _hex(h.W_Q), "W_K": _hex(h.W_K), "W_V": _hex(h.W_V), "W_O": _hex(h.W_O), "mask": h.mask, "hard_mode": h.hard_mode}
                    for h in layer.heads
                ],
                "W1": _hex(layer.W1),
                "b1": _hex(layer.b1),
                "W2": _hex(layer.W2),
                "b2": _hex(layer.b2),
            }
            for layer in m.layers
        ],
    }


def fingerprints() -> dict[str, Any]:
    """Return the fingerprints of every construction, compiled formula and compiled Dyck program."""
    out: dict[str, Any] = {}
    for name in apps.CONSTRUCTIONS:
        con = apps.get_construction(name)
        fp = model_fingerprint(con.model)
        fp["outputs"] = list(con.outputs)
        fp["min_n"] = con.min_n
        fp["tau(1..8)"] = [float(con.tau(n)).hex() for n in range(con.min_n, 9)]
        out[f"construction:{name}"] = fp
    for regime in ("bounded", "unbounded"):
        for direction in ("past", "future"):
            out[f"heads:tiebreak:{direction}:{regime}"] = model_fingerprint(hd.build_tiebreak(direction, regime, K=1.5))
        for offset in (-1, 1, 2):
            out[f"heads:lookup:{offset}:{regime}"] = model_fingerprint(hd.build_lookup(offset, regime, K=2.0))
    out["heads:lookup:-1:unbounded:mask-none"] = model_fingerprint(hd.build_lookup(-1, "unbounded", mask="none"))
    texts = list(HANDPICKED) + [str(f) for f in sample_formulas(20, seed=0)]
    for regime in ("bounded", "unbounded"):
        for text in texts:
            try:
                c = lg.compile_formula(text, ("a", "b"), regime)
            except ValueError as e:  # refusals are behaviour too
                out[f"formula:{regime}:{text}"] = {"refused": str(e)}
                continue
            fp = model_fingerprint(c.model)
            fp["coords"] = list(c.coords)
            fp["c"], fp["K"], fp["m_max"] = float(c.c).hex(), float(c.K).hex(), c.m_max
            fp["heads"] = [[h.layer, h.index, h.construction, h.node, h.target] for h in c.heads]
            fp["times"] = c.times
            out[f"formula:{regime}:{text}"] = fp
    for k in (1, 2, 3):
        comp = sr.compile_program(sr.dyck_program(k))
        fp = model_fingerprint(comp.model)
        fp["coords"] = {n: list(v) for n, v in comp.coords.items()}
        fp["output_coords"] = list(comp.output_coords)
        fp["heads"] = {n: list(v) for n, v in (comp.heads or {}).items()}
        out[f"srasp:dyck-{k}"] = fp
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the fingerprints; with --compare, report the models that differ from a baseline (exit 1 if any)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--compare", type=Path, default=None)
    a = ap.parse_args(argv)
    fps = fingerprints()
    a.out.write_text(json.dumps(fps, indent=0, sort_keys=True))
    refused = sum(1 for v in fps.values() if "refused" in v)
    print(f"{len(fps)} entries ({len(fps) - refused} models, {refused} refusals) written to {a.out}")
    if a.compare is None:
        return 0
    base = json.loads(a.compare.read_text())
    new = json.loads(a.out.read_text())
    differ = sorted(k for k in set(base) | set(new) if base.get(k) != new.get(k))
    for k in differ:
        print(f"DIFFERS: {k}")
    print(f"compared {len(set(base) | set(new))} entries with {a.compare}: {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
