"""Theorem 26's table (checks.theorem26): measured gap/x_max, T's temperatures, the searched largest working temperature."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hardsoft.checks.engine import theorem26 as t26
from hardsoft.checks.engine import verify as vf
from hardsoft.spec import transformer as tf


@pytest.mark.parametrize("name", ["has-a", "last-a"])
def test_rows_are_ordered_and_T_temperature_works(name: str) -> None:
    target = vf.example_targets()[name]
    for r in t26.study(target, [4, 6]):
        assert r.gap == tf.measure(target.model, r.n).gap and r.x_max == tf.measure(target.model, r.n).x_max
        assert r.tau_T_sufficient <= r.tau_T_tightest <= r.tau_largest_working
        w = vf.Chunk(r.n, ()).inputs(2)
        ref = target.reference(w)
        assert t26.decides_all(target, w, ref, r.tau_T_tightest, "all")


def test_largest_working_tau_brackets_the_switch() -> None:
    target = vf.example_targets()["last-a"]
    n = 6
    tau, capped = t26.largest_working_tau(target, n, target.tau(n))
    assert not capped
    w = vf.Chunk(n, ()).inputs(2)
    ref = target.reference(w)
    assert t26.decides_all(target, w, ref, tau, "accept")
    assert not t26.decides_all(target, w, ref, tau * (1 + 2 * t26.SEARCH_REL_TOL), "accept")


def test_infinite_gap_certifies_nothing() -> None:
    from hardsoft.spec.examples import build_prefix_fraction

    m = build_prefix_fraction()
    meas = tf.measure(m, 5)
    assert math.isinf(meas.gap) and t26.certified_temperatures(m, meas, 0.25) is None


def test_measure_refuses_with_the_estimate() -> None:
    with pytest.raises(ValueError, match=r"2\^30 .* estimated"):
        t26.measure_exhaustively(vf.example_targets()["has-a"].model, 30)


def test_table_and_plot(tmp_path) -> None:
    rows = t26.study(vf.example_targets()["has-a"], [3, 5])
    md = t26.markdown_table(rows)
    assert md.count("\n") == 3 and "`has-a`" in md
    assert t26.plot(rows, tmp_path / "t.png").stat().st_size > 0
    assert np.isfinite([d["ratio_working"] for d in t26.rows_json(rows)]).all()
