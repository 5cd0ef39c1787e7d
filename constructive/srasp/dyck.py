"""S-RASP, the Dyck-k program: prefix validity of bracket words as an S-RASP program, and an independent stack-based reference."""

from __future__ import annotations

from hardsoft.constructive.srasp.language import Aggregate, BoolAnd, BoolNot, BoolOr, IsConst, Once, Op, Program, Psum, Token

#: Bracket pairs of Dyck-k, k <= 4.
BRACKETS = (("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"))


def dyck_program(k: int = 2) -> Program:
    """Return the Dyck-k prefix-validity program: per prefix w_0..w_i: 'in' Dyck-k, 'open' (a proper prefix of a Dyck-k word) or 'bad'.

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
    pairs = BRACKETS[:k]
    alphabet = tuple(c for p in pairs for c in p)
    defs: list[tuple[str, Op]] = [
        ("open", Token(tuple(o for o, _ in pairs))),
        ("close", Token(tuple(c for _, c in pairs))),
        ("depth", Psum("open", "close")),
        ("at0", IsConst("depth", 0)),
        ("at1", IsConst("depth", 1)),
        ("underflow", BoolAnd("close", "at0")),
    ]
    mism = None
    for t, (o, c) in enumerate(pairs):
        defs += [
            (f"open{t}", Token((o,))),
            (f"close{t}", Token((c,))),
            (f"partner{t}", Aggregate("depth", "depth", -1, "open", f"open{t}", "strict")),
            (f"other{t}", BoolNot(f"partner{t}")),
            (f"mism{t}", BoolAnd(f"close{t}", f"other{t}")),
        ]
        if mism is None:
            mism = f"mism{t}"
        else:
            defs.append((f"mism<={t}", BoolOr(mism, f"mism{t}")))
            mism = f"mism<={t}"
    assert mism is not None
    defs += [
        ("err", BoolOr("underflow", mism)),
        ("bad", Once("err")),
        ("good", BoolNot("bad")),
        ("closes0", BoolAnd("close", "at1")),
        ("in", BoolAnd("closes0", "good")),
    ]
    return Program(f"dyck-{k}", alphabet, tuple(defs), (("bad", "bad"), ("in", "in")), "open")


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
