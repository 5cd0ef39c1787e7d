"""Hypothesis profiles (dev / ci / deep) chosen by HYPOTHESIS_PROFILE.

With CI=true Hypothesis would load its own built-in "ci" profile; registering
ours under that name and loading explicitly keeps the budgets ours.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=40, **_COMMON)
settings.register_profile("ci", max_examples=200, derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("deep", max_examples=3000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
