"""S-RASP, the Dyck-k program: prefix validity of bracket words (the library's dyck1..dyck4.srasp), and an independent stack-based reference."""

from __future__ import annotations

from hardsoft.constructive.srasp.language import Program
from hardsoft.constructive.srasp.library import load_library

#: Bracket pairs of Dyck-k, k <= 4.
BRACKETS = (("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"))


def dyck_program(k: int = 2) -> Program:
    """Return the Dyck-k prefix-validity program (programs/dyck<k>.srasp): per prefix w_0..w_i: 'in' Dyck-k, 'open' or 'bad'.

    depth_i = max(0, #open - #close over w_0..w_{i-1}) (the depth BEFORE i; never
    clamped on a valid prefix).  A close at i with depth_i = 0 goes negative.
    Otherwise its partner is the rightmost open j < i with depth_j = depth_i - 1:
    every open strictly between the partner and i sits deeper (>= depth_i), so
    the rightmost such j is the partner.  The prefix is bad from the first
    close that goes negative or whose partner has another type; it is in Dyck-k
    when it is not bad and the depth after i, depth_i + [open] - [close], is 0,
    i.e. a close with depth_i = 1.
    """
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= len(BRACKETS):
        raise ValueError(f"Dyck-k needs 1 <= k <= {len(BRACKETS)}, got k = {k!r}")
    return load_library(f"dyck{k}")


def reference_dyck(word: str, k: int = 2) -> list[str]:
    """Dyck-k prefix validity by a stack (independent of the S-RASP program): 'in', 'open' or 'bad' per prefix."""
    pairs = BRACKETS[:k]
    opens = {o: t for t, (o, _) in enumerate(pairs)}
    closes = {c: t for t, (_, c) in enumerate(pairs)}
    stack: list[int] = []
    out, bad = [], False
    for ch in word:
        if ch not in opens and ch not in closes:
            raise ValueError(f"{ch!r} is not a bracket of Dyck-{k}")
        if not bad:
            if ch in opens:
                stack.append(opens[ch])
            elif not stack or stack.pop() != closes[ch]:
                bad = True
        out.append("bad" if bad else ("in" if not stack else "open"))
    return out
