"""Hypothesis profiles (dev / ci / deep) chosen by HYPOTHESIS_PROFILE.

With CI=true Hypothesis would load its own built-in "ci" profile; registering
ours under that name and loading explicitly keeps the budgets ours.

Under ``--dist loadgroup`` the run is refused when pytest-xdist's groups are lost: the Lean tests
share one build per worker (``xdist_group("lean")``), and a pytest that ignores the group (pytest 9.2
with pytest-xdist 3.8) runs them on both workers, two builds of the project at once.  The tests that
build planted copies of the library (or a planted module) apart from the project form a second group,
``lean-copies``, which the other worker takes beside its Python tests (each wasm Lean process is
serial, about one core and 3.6 GB).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=40, **_COMMON)
settings.register_profile("ci", max_examples=200, derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("deep", max_examples=3000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def _loadgroup_lost() -> bool:
    """True when this pytest and pytest-xdist lose ``--dist loadgroup``'s groups.

    pytest-xdist (to 3.8 at least) groups by rewriting ``item._nodeid``; from pytest 9.2 the node id
    is computed from another attribute, so the rewrite is ignored and every test may run anywhere.
    """
    import xdist

    xdist_version = tuple(int(p) for p in xdist.__version__.split(".")[:2] if p.isdigit())
    return tuple(pytest.version_tuple[:2]) >= (9, 2) and xdist_version <= (3, 8)


def pytest_configure(config: pytest.Config) -> None:
    """Refuse ``--dist loadgroup`` with a pytest-xdist pair that ignores the groups (one line, before any test)."""
    if config.getoption("dist", None) == "loadgroup" and _loadgroup_lost():
        raise pytest.UsageError(
            f"--dist loadgroup has no effect with pytest {pytest.__version__} and pytest-xdist: the Lean tests "
            "would build on both workers at once; install the test extra's pytest (<9.2, pyproject.toml)"
        )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Backstop on an xdist worker under ``--dist loadgroup``: every grouped test's id must carry its group (``@name``)."""
    if not getattr(config.option, "loadgroup", False):
        return
    lost = [item.nodeid for item in items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        raise RuntimeError(f"--dist loadgroup lost its groups: {len(lost)} grouped tests (e.g. {lost[0]}) would run on any worker")
