"""Compile without pausing for Python's cyclic garbage collector (``without_cycle_collection``).

The compilers build millions of small objects (formula nodes, dictionaries, units) that hold no
reference cycles: reference counting frees every one of them.  The cyclic collector still walks
every live object at each full collection, and it runs a full collection each time the
survivors grow by a quarter, so a compile that keeps its whole schedule alive pays a growing
walk again and again (at 4,000 B-RASP operations, two thirds of the compile's time).  Pausing
it for the compile changes no result; it is turned back on (if it was on) when the compile
returns or raises, and collects as usual from then on.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block (restored as it was on exit, also on an exception)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def without_cycle_collection(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Return fn run with the cyclic garbage collector paused (``cycle_collection_paused``)."""

    @functools.wraps(fn)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with cycle_collection_paused():
            return fn(*args, **kwargs)

    return run
