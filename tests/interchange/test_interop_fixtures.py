"""The importer on the committed tracr fixtures (tests/fixtures/tracr/, made by the real tracr): soft at tracr's own scale reproduces tracr.

Each fixture's reference table carries ``tracr_output``, the compiled model's own output (tracr's
forward pass), beside ``output`` (``rasp.evaluate``).  Imported with ``--from tracr``, hardsoft's
soft run at the model's own temperature (attn_scale) must give tracr_output at every position.
Skipped when no fixtures are present.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hardsoft.interchange import reference, tracr
from hardsoft.interchange.tokens import as_token
from hardsoft.spec import transformer as tf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tracr"
NAMES = sorted(p.name.removesuffix(".safetensors") for p in FIXTURES.glob("*.safetensors"))


@pytest.mark.skipif(not NAMES, reason="no tracr fixtures in tests/fixtures/tracr")
@pytest.mark.parametrize("name", NAMES or ["none"])
def test_soft_run_at_the_own_temperature_reproduces_tracr(name: str) -> None:
    m = tracr.import_tracr(FIXTURES / f"{name}.safetensors")
    assert m.output is not None and m.own_tau is not None
    data = json.loads((FIXTURES / f"{name}.reference.json").read_text())
    ref = reference.load_reference(FIXTURES / f"{name}.reference.json", m)
    assert len(ref.cases) == len(data["cases"])
    numeric = m.output.kind == "numerical"
    for n in sorted({len(c["input"]) for c in data["cases"]}):
        cases = [c for c in data["cases"] if len(c["input"]) == n and "tracr_output" in c]
        if not cases:
            continue
        w = m.encode([[as_token(x) for x in c["input"]] for c in cases])
        final = tf.run(m, w, "soft", tau=m.own_tau).activations[-1]
        got = m.output.decode(final)[:, m.offset :]
        for c, row in zip(cases, got):
            for want, g in zip(c["tracr_output"], row):
                if want is None:
                    continue
                if numeric:
                    assert abs(float(g) - float(want)) <= reference.NUMERIC_OUTPUT_ATOL, (name, c["input"])
                else:
                    assert m.output.labels is not None and m.output.labels[int(g)] == as_token(want), (name, c["input"])
    assert np.isfinite(m.WE).all()
