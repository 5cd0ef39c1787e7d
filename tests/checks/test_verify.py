"""The exhaustive verification engine (checks.verify): chunking, the three backends, wrong twins it must catch, bad input."""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardsoft.checks.engine import verify as v


@given(st.integers(1, 4), st.integers(1, 7), st.integers(1, 64))
def test_chunks_cover_every_string_once(s: int, N: int, chunk: int) -> None:
    tasks = v.plan_chunks(s, range(1, N + 1), chunk)
    seen: dict[int, list[tuple[int, ...]]] = {}
    for task in tasks:
        assert sum(c.size(s) for c in task) <= chunk or len(task) == 1
        for c in task:
            seen.setdefault(c.n, []).extend(tuple(r) for r in c.inputs(s).tolist())
    for n in range(1, N + 1):
        words = seen[n]
        assert len(words) == len(set(words)) == s**n
        assert all(len(w) == n and all(0 <= x < s for x in w) for w in words)


@pytest.mark.parametrize("name", ["has-a", "last-a"])
def test_examples_verify_serially(name: str) -> None:
    r = v.verify(v.example_targets()[name], 10, workers=1)
    assert r.ok and r.backend == "serial"
    assert r.strings == 2**11 - 2 and all(t.strings == r.strings for t in r.per_mode.values())
    # the accepted counts come from the reference: has-a accepts all but b^n, last-a all but b^n too
    assert all(row["accepted"] == 2**n - 1 for n, row in r.per_length.items())


def test_local_pool_agrees_with_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(v, "LOCAL_POOL_MIN_STRINGS", 0)
    t = v.example_targets()["last-a"]
    pooled = v.verify(t, 9, workers=2, chunk_strings=64)
    serial = v.verify(t, 9, workers=1, chunk_strings=64)
    assert pooled.backend.startswith("local pool") and pooled.tasks > 2
    assert pooled.ok and serial.ok and pooled.per_length == serial.per_length


def _wrong_tau(n: int) -> float:
    """A temperature too hot for has-a from n = 4 on (needs 1/tau > ln(n-1))."""
    return 1.0


def _wrong_reference(inputs: np.ndarray) -> np.ndarray:
    """has-a's reference with a and b swapped: the engine must catch it in both modes."""
    return v.reference_has_a(1 - inputs)


def test_wrong_temperature_is_caught_in_soft_mode_only() -> None:
    bad = dataclasses.replace(v.example_targets()["has-a"], tau=_wrong_tau)
    r = v.verify(bad, 8, workers=1)
    assert not r.ok and r.per_mode["hard"].ok and not r.per_mode["soft"].ok
    ce = r.per_mode["soft"].counterexamples[0]
    assert ce["mode"] == "soft" and ce["n"] >= 4 and "a" in ce["word"] and ce["expected"] is True
    # lengths 1..3 still pass at tau = 1 (one 'a' among <= 3 keys keeps weight e/(e+2) > 1/2)
    assert all(r.per_length[n]["soft"]["wrong_strings"] == 0 for n in (1, 2, 3))


def test_wrong_reference_is_caught_in_both_modes() -> None:
    bad = dataclasses.replace(v.example_targets()["has-a"], reference=_wrong_reference)
    r = v.verify(bad, 6, workers=1)
    assert not r.per_mode["hard"].ok and not r.per_mode["soft"].ok
    # exactly the words with both an a and a b agree: 2^n - 2 of 2^n per length
    assert r.per_mode["hard"].wrong_strings == sum(2 for n in range(1, 7))


def test_dask_local_cluster_agrees_with_serial() -> None:
    distributed = pytest.importorskip("dask.distributed")
    t = v.example_targets()["last-a"]
    t0 = time.perf_counter()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        by_client = v.verify(t, 10, scheduler=client, chunk_strings=128)
        by_address = v.verify(t, 6, scheduler=cluster.scheduler_address)
    serial = v.verify(t, 10, workers=1)
    assert by_client.backend.startswith("dask") and by_client.tasks > 2
    assert by_client.ok and by_address.ok and by_client.per_length == serial.per_length
    print(f"dask LocalCluster test: {time.perf_counter() - t0:.1f} s")


def test_unreachable_scheduler_is_bad_input() -> None:
    pytest.importorskip("dask.distributed")
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler"):
        v.verify(v.example_targets()["has-a"], 3, scheduler="tcp://127.0.0.1:9", connect_timeout=1.0)


@pytest.mark.parametrize("N", [0, -1, 2.5, True])
def test_bad_length_bound(N: object) -> None:
    with pytest.raises(ValueError, match="the length bound N must"):
        v.verify(v.example_targets()["has-a"], N)  # type: ignore[arg-type]


def test_too_large_is_refused_with_the_estimate() -> None:
    t = v.example_targets()["has-a"]
    with pytest.raises(ValueError, match=r"estimated .* on 1 worker"):
        v.verify(t, 24, workers=1, max_seconds=1.0)
    with pytest.raises(ValueError, match="more than 2\\^32"):
        v.verify(t, 40, workers=1)
