"""Statement P (corresponds to Lemma 25): the per-layer error bound, step by step.

Each step is its own Z3 query, at dimension d (and n positions where relevant), with all
weights in the box [-w, w] and activations in [-X, X], X <= x_box (row-vector convention,
u B as in the notes):

* score   (P.score): ||x_i||, ||x_j|| <= X, ||x'_i - x_i||, ||x'_j - x_j|| <= eps, eps <= 1 give
  |x'_i A x'_j - x_i A x_j| <= |A|_sum (2X + 1) eps.
  Without eps <= 1 this is FALSE (erratum 3): search_score_unguarded finds a countermodel,
  replayed against spec.bounds.wrong_score_error_bound_unguarded.
* head    (P.head): for ANY probability vectors alpha, alpha' over n positions,
  ||sum_j alpha'_j x'_j B - sum_j alpha_j x_j B||_inf <= |B|_col eps + |B|_col X ||alpha' - alpha||_1.
* ffn     (P.ffn): F(y) = ReLU(y W1 + b1) W2 + b2 with hidden width h, z = y + F(y):
  ||z' - z||_inf <= (1 + |W1|_col |W2|_col) ||y' - y||_inf  (ReLU as if-then-else).
* compose (P.compose): from the step conclusions, with H heads, the residual
  (||y' - y|| <= eps + sum_h head error_h) and the two ASSUMED lemmas S and E on the weights,
      ||alpha'_h - alpha_h||_1 <= score_error_h / tau + 2 (N - 1) x     (S + E, NOT proved here),
  the output error is <= r eps + a with
      r = (1 + Lip F)(1 + sum_h |B^h|_col (1 + X (2X+1) |A^h|_sum / tau)),
      a = 2 (1 + Lip F) X (N - 1) x sum_h |B^h|_col,   x = exp(-gamma/tau) in (0, 1).
  S enters as an assumption because its full proof is not an SMT fact (smt/s_lipschitz.py
  proves its abstraction for every n up to a bound: 16 tiny, 32 paper); E is proved in smt/e_softmax.py.

So "P proved at (d, n, H)" means: every step proved at those sizes, and the composition
proved with S and E assumed; the smt family reports P as proved only when S and E were proved
in the same run for every N up to n_keys_max (SmtCheck.assumes), otherwise as undecided.  |A|_sum is the exact sum of |A_kl|; |B|_col and |W|_col are
any upper bounds of the max column sums (the claims are monotone in them, so this is no loss).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import z3

from hardsoft.smt.check import Cvc5Query, Expect, Lemma, SmtCheck
from hardsoft.smt.core import PROVED, Abs, R, Sum, Verdict, check_box, check_size, check_timeout, prove, reals, search, search_to_smt2, to_smt2
from hardsoft.smt.runs import CheckRun, run_sizes

#: Largest dimension d accepted by the P checks.
MAX_D_P: int = 8
#: Largest number of positions n accepted by the P head check.
MAX_N_P: int = 16
#: Largest number of heads H accepted by the P composition check.
MAX_H_P: int = 16


def _matrix(name: str, rows: int, cols: int) -> list[list[z3.ArithRef]]:
    """Return a rows x cols matrix of fresh reals name_k_l."""
    return [[z3.Real(f"{name}_{k}_{l}") for l in range(cols)] for k in range(rows)]


def _in_box(vs: list[z3.ArithRef], w: Any) -> list[z3.BoolRef]:
    """Return -w <= v <= w for every v."""
    return [z3.And(-w <= v, v <= w) for v in vs]


def _col_bound(M: list[list[z3.ArithRef]], c: z3.ArithRef) -> list[z3.BoolRef]:
    """Return c >= sum_k |M_kl| for every column l (c bounds the max column absolute sum)."""
    return [c >= Sum([Abs(M[k][l]) for k in range(len(M))]) for l in range(len(M[0]))]


def _bilinear(u: list[z3.ArithRef], A: list[list[z3.ArithRef]], v: list[z3.ArithRef]) -> z3.ArithRef:
    """Return u A v^T."""
    d = len(u)
    return Sum([u[k] * A[k][l] * v[l] for k in range(d) for l in range(d)])


def encode_score(d: int, w: Fraction, x_box: Fraction, guard: bool = True) -> dict[str, Any]:
    """Return the hypotheses of Lemma 25's score step at dimension d (eps <= 1 only if guard)."""
    A = _matrix("A", d, d)
    xi, xj, xpi, xpj = reals("xi", d), reals("xj", d), reals("xpi", d), reals("xpj", d)
    X, eps = z3.Reals("X eps")
    hyps = [X > 0, X <= R(x_box), eps >= 0] + ([eps <= 1] if guard else [])
    hyps += _in_box([a for row in A for a in row], R(w))
    hyps += _in_box(xi + xj, X)
    hyps += [Abs(xpi[k] - xi[k]) <= eps for k in range(d)] + [Abs(xpj[k] - xj[k]) <= eps for k in range(d)]
    A_sum = Sum([Abs(a) for row in A for a in row])
    err = _bilinear(xpi, A, xpj) - _bilinear(xi, A, xj)
    return {"hyps": hyps, "err": err, "A_sum": A_sum, "X": X, "eps": eps}


# --------------------------------------------------------------------------- scalar lemmas
# Each lemma is a universally quantified statement over a few reals, PROVED by its own Z3 query
# (prove_lemmas).  The dimension-d steps then use instances of them: an instance of a proved
# universal statement is true for every assignment, so adding it as a hypothesis is sound.


def _lemma_defs() -> dict[str, tuple[list[z3.BoolRef], z3.BoolRef]]:
    """Return the scalar lemmas as (hypotheses, claim) over fresh variables."""
    a, b, ap, bp, X, e, k, tt, c, p, q, u, v = z3.Reals("a b ap bp X e k t c p q u v")
    relu = lambda z: z3.If(z > 0, z, 0)  # noqa: E731
    return {
        # product error: |a'b' - ab| <= (2X+1) e   (needs e <= 1: e^2 <= e)
        "prod_err": ([X >= 0, Abs(a) <= X, Abs(b) <= X, e >= 0, e <= 1, Abs(ap - a) <= e, Abs(bp - b) <= e], Abs(ap * bp - a * b) <= (2 * X + 1) * e),
        # scaling: |t| <= c  ->  |k t| <= |k| c
        "scale": ([Abs(tt) <= c], Abs(k * tt) <= Abs(k) * c),
        # monotone product: u <= v, c >= 0  ->  u c <= v c
        "mono": ([u <= v, c >= 0], u * c <= v * c),
        # ReLU is 1-Lipschitz
        "relu": ([], Abs(relu(p) - relu(q)) <= Abs(p - q)),
    }


_LEMMA_CACHE: dict[str, Verdict] = {}


def prove_lemmas(timeout_s: float, keep_dir: Path | None = None) -> dict[str, Verdict]:
    """Return the verdict of every scalar lemma (cached per process)."""
    for name, (hyps, claim) in _lemma_defs().items():
        if name not in _LEMMA_CACHE or _LEMMA_CACHE[name].status != PROVED:
            _LEMMA_CACHE[name] = prove(hyps, claim, timeout_s=timeout_s, name=f"P_lemma_{name}", keep_dir=keep_dir)
    return dict(_LEMMA_CACHE)


class _Steps:
    """A step proof: statement hypotheses, named atoms with definitions, lemma instances, identity links."""

    def __init__(self, hyps: list[z3.BoolRef], witness: dict[str, Any] | None = None) -> None:
        self.hyps = list(hyps)
        #: a candidate model of the statement's hypotheses (name -> value; every other base variable 0),
        #: given to the non-vacuity check as a hint (a hint cannot fake non-vacuity, see core.prove)
        self.witness = dict(witness or {})
        self.defs: list[z3.BoolRef] = []
        self.inst: list[z3.BoolRef] = []
        self.links: list[z3.BoolRef] = []

    def atom(self, name: str, term: z3.ArithRef) -> z3.ArithRef:
        """Return a fresh real defined to equal term."""
        v = z3.Real(name)
        self.defs.append(v == term)
        return v

    def scale(self, name: str, k: z3.ArithRef, t: z3.ArithRef, c: z3.ArithRef) -> tuple[z3.ArithRef, z3.ArithRef]:
        """Return atoms (k t, |k| c) with the instance of lemma 'scale': |t| <= c -> |k t| <= |k| c."""
        kt = self.atom(f"{name}_prod", k * t)
        kc = self.atom(f"{name}_bound", Abs(k) * c)
        self.inst.append(z3.Implies(Abs(t) <= c, Abs(kt) <= kc))
        return kt, kc

    def mono(self, name: str, u: z3.ArithRef, v: z3.ArithRef, c: z3.ArithRef) -> tuple[z3.ArithRef, z3.ArithRef]:
        """Return atoms (u c, v c) with the instance of lemma 'mono': u <= v, c >= 0 -> u c <= v c."""
        uc = self.atom(f"{name}_lhs", u * c)
        vc = self.atom(f"{name}_rhs", v * c)
        self.inst.append(z3.Implies(z3.And(u <= v, c >= 0), uc <= vc))
        return uc, vc

    def column(
        self, name: str, coeffs: list[z3.ArithRef], diffs: list[z3.ArithRef], c: z3.ArithRef, col_bound: z3.ArithRef
    ) -> tuple[z3.ArithRef, z3.ArithRef]:
        """Return (sum_k coeff_k diff_k, col_bound c) for one column: lemma 'scale' on each term
        (|diff_k| <= c), lemma 'mono' on sum_k |coeff_k| <= col_bound, and the identity link
        sum of the term bounds = (sum_k |coeff_k|) c."""
        terms, tb = [], []
        for k, (w, t) in enumerate(zip(coeffs, diffs)):
            p, pb = self.scale(f"{name}_t{k}", w, t, c)
            terms.append(p)
            tb.append(pb)
        colsum = self.atom(f"{name}_colsum", Sum([Abs(w) for w in coeffs]))
        lhs, rhs = self.mono(f"{name}_col", colsum, col_bound, c)
        self.links.append(Sum(tb) == lhs)
        return Sum(terms), rhs

    def prove(self, claim: z3.BoolRef, timeout_s: float, name: str, keep_dir: Path | None) -> Verdict:
        """Return "proved" iff the lemmas, the identity links (Z3 nra) and the main step (Z3 smt) are all proved."""
        from hardsoft.smt.core import free_constants

        hint = [c == (R(self.witness[c.decl().name()]) if c.decl().name() in self.witness else 0) for c in free_constants(self.hyps)]
        lem = prove_lemmas(timeout_s, keep_dir)
        bad = [v for v in lem.values() if v.status != PROVED]
        if bad:
            return bad[0]
        total = sum(v.seconds for v in lem.values())
        if self.links:
            lk = prove(self.hyps + self.defs, z3.And(self.links), timeout_s=timeout_s, name=f"{name}_links", keep_dir=keep_dir, witness_hint=hint)
            total += lk.seconds
            if lk.status != PROVED:
                return lk
        main = prove(
            self.hyps + self.defs + self.inst + self.links, claim, timeout_s=timeout_s, name=name, keep_dir=keep_dir, engine="smt", witness_hint=hint
        )
        main.seconds += total
        return main


def prove_score(d: int, w: Fraction, x_box: Fraction, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of |x'_i A x'_j - x_i A x_j| <= |A|_sum (2X+1) eps (eps <= 1) at dimension d.

    Proof: per entry, lemma prod_err bounds t_kl = x'_ik x'_jl - x_ik x_jl by c = (2X+1) eps and
    lemma scale bounds |A_kl t_kl| by |A_kl| c; the identity links (proved by Z3) are
    x'_i A x'_j - x_i A x_j = sum_kl A_kl t_kl and |A|_sum c = sum_kl |A_kl| c.
    """
    v = encode_score(d, w, x_box)
    A = [[z3.Real(f"A_{k}_{l}") for l in range(d)] for k in range(d)]
    xi, xj, xpi, xpj = reals("xi", d), reals("xj", d), reals("xpi", d), reals("xpj", d)
    X, eps = v["X"], v["eps"]
    st = _Steps(v["hyps"], {"X": 1})
    c = st.atom("c", (2 * X + 1) * eps)
    us, ws = [], []
    for k in range(d):
        for l in range(d):
            tkl = st.atom(f"t_{k}_{l}", xpi[k] * xpj[l] - xi[k] * xj[l])
            st.inst.append(
                z3.Implies(  # instance of lemma prod_err
                    z3.And(X >= 0, Abs(xi[k]) <= X, Abs(xj[l]) <= X, eps >= 0, eps <= 1, Abs(xpi[k] - xi[k]) <= eps, Abs(xpj[l] - xj[l]) <= eps),
                    Abs(tkl) <= c,
                )
            )
            u, wv = st.scale(f"u_{k}_{l}", A[k][l], tkl, c)
            us.append(u)
            ws.append(wv)
    err = st.atom("score_err", v["err"])
    rhs = st.atom("score_bound", v["A_sum"] * (2 * X + 1) * eps)
    st.links += [err == Sum(us), rhs == Sum(ws)]
    claim = Abs(err) <= rhs
    return st.prove(claim, timeout_s, f"P_score_d{d}", keep_dir)


def search_score_unguarded(d: int, w: Fraction, x_box: Fraction, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return a countermodel search for the score step WITHOUT eps <= 1 (erratum 3, Lemma 25).

    Search-only facts (they shrink the search space, so every model is still a candidate that the
    replay checks): the violation must exceed the bound by 1/8, so that the float replay sees it, and
    the search looks at eps = 2, x_i = x_j = 0, x'_i = x'_j = (eps, ..., eps), where the error is
    eps^2 sum A_kl; this keeps the search linear at every d (unrestricted, Z3 sometimes times out
    from d = 2).
    """
    v = encode_score(d, w, x_box, guard=False)
    xi, xj, xpi, xpj = reals("xi", d), reals("xj", d), reals("xpi", d), reals("xpj", d)
    shape = [v["eps"] == 2] + [xi[k] == 0 for k in range(d)] + [xj[k] == 0 for k in range(d)]
    shape += [xpi[k] == v["eps"] for k in range(d)] + [xpj[k] == v["eps"] for k in range(d)]
    violation = Abs(v["err"]) >= v["A_sum"] * (2 * v["X"] + 1) * v["eps"] + R(Fraction(1, 8))
    return search(v["hyps"] + shape, violation, timeout_s=timeout_s, name=f"ERR3_score_d{d}", keep_dir=keep_dir)


def prove_head(n: int, d: int, w: Fraction, x_box: Fraction, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of the head-output step for n positions at dimension d.

    Proof: alpha'_j x'_jk - alpha_j x_jk = alpha'_j (x'_jk - x_jk) + (alpha'_j - alpha_j) x_jk, each
    part bounded by lemma scale (alpha'_j eps and |alpha'_j - alpha_j| X), so the mixture difference
    D_k satisfies |D_k| <= mu = eps + X ||alpha' - alpha||_1; then |D_k B_kl| <= |B_kl| mu (scale)
    and sum_k |B_kl| mu <= |B|_col mu (mono).  Identity links proved by Z3.
    """
    B = _matrix("B", d, d)
    x = [reals(f"x{j}", d) for j in range(n)]
    xp = [reals(f"xp{j}", d) for j in range(n)]
    al, alp = reals("alpha", n), reals("alphap", n)
    X, eps, Bcol = z3.Reals("X eps Bcol")
    hyps = [X > 0, X <= R(x_box), eps >= 0, Sum(al) == 1, Sum(alp) == 1]
    hyps += [a >= 0 for a in al + alp] + _in_box([b for row in B for b in row], R(w)) + _col_bound(B, Bcol)
    for j in range(n):
        hyps += _in_box(x[j], X) + [Abs(xp[j][k] - x[j][k]) <= eps for k in range(d)]
    st = _Steps(hyps, {"X": 1, "alpha_0": 1, "alphap_0": 1})
    dal = st.atom("dalpha", Sum([Abs(alp[j] - al[j]) for j in range(n)]))
    mu = st.atom("mu", eps + X * dal)
    D = []
    for k in range(d):
        parts, bounds_ = [], []
        for j in range(n):
            g, gb = st.scale(f"g_{j}_{k}", alp[j], xp[j][k] - x[j][k], eps)
            h, hb = st.scale(f"h_{j}_{k}", alp[j] - al[j], x[j][k], X)
            parts += [g, h]
            bounds_ += [gb, hb]
        Dk = st.atom(f"D_{k}", Sum([alp[j] * xp[j][k] - al[j] * x[j][k] for j in range(n)]))
        st.links += [Dk == Sum(parts), Sum(bounds_) == mu]
        D.append(Dk)
    claims = []
    for l in range(d):
        total, rhs = st.column(f"p_{l}", [B[k][l] for k in range(d)], D, mu, Bcol)
        o = Sum([al[j] * x[j][k] * B[k][l] for j in range(n) for k in range(d)])
        op = Sum([alp[j] * xp[j][k] * B[k][l] for j in range(n) for k in range(d)])
        st.links += [op - o == total, rhs == Bcol * eps + Bcol * X * dal]
        claims.append(Abs(op - o) <= Bcol * eps + Bcol * X * dal)
    st.links.append(mu >= 0)  # eps, X, dalpha >= 0
    return st.prove(z3.And(claims), timeout_s, f"P_head_n{n}_d{d}", keep_dir)


def prove_ffn(d: int, h: int, w: Fraction, timeout_s: float, keep_dir: Path | None = None) -> Verdict:
    """Return the verdict of ||z' - z|| <= (1 + |W1|_col |W2|_col) ||y' - y|| for z = y + ReLU(y W1 + b1) W2 + b2.

    Proof: pre-activation differences are sum_k dy_k W1_ki, bounded via scale and mono by c1 delta;
    ReLU is 1-Lipschitz (lemma relu); the output difference dy_l + sum_i da_i W2_il is bounded via
    scale and mono by delta + c2 c1 delta.  Identity links proved by Z3.
    """
    W1, W2 = _matrix("W1", d, h), _matrix("W2", h, d)
    b1, b2 = reals("b1", h), reals("b2", d)
    y, yp = reals("y", d), reals("yp", d)
    c1, c2, delta = z3.Reals("W1col W2col delta")
    hyps = _in_box([a for row in W1 for a in row] + [a for row in W2 for a in row] + b1 + b2, R(w))
    hyps += _col_bound(W1, c1) + _col_bound(W2, c2) + [Abs(yp[k] - y[k]) <= delta for k in range(d)]
    hyps += [delta >= 0]
    st = _Steps(hyps)
    relu = lambda z: z3.If(z > 0, z, 0)  # noqa: E731
    c1d = st.atom("c1delta", c1 * delta)
    da = []
    for i in range(h):
        pre = Sum([y[k] * W1[k][i] for k in range(d)]) + b1[i]
        prep = Sum([yp[k] * W1[k][i] for k in range(d)]) + b1[i]
        total, rhs = st.column(f"q_{i}", [W1[k][i] for k in range(d)], [yp[k] - y[k] for k in range(d)], delta, c1)
        st.links += [prep - pre == total, rhs == c1d]
        dai = st.atom(f"da_{i}", relu(prep) - relu(pre))
        st.inst.append(Abs(dai) <= Abs(prep - pre))  # lemma relu
        da.append(dai)
    claims = []
    for l in range(d):
        z = y[l] + Sum([relu(Sum([y[k] * W1[k][i] for k in range(d)]) + b1[i]) * W2[i][l] for i in range(h)]) + b2[l]
        zp = yp[l] + Sum([relu(Sum([yp[k] * W1[k][i] for k in range(d)]) + b1[i]) * W2[i][l] for i in range(h)]) + b2[l]
        total, rhs = st.column(f"r_{l}", [W2[i][l] for i in range(h)], da, c1d, c2)
        st.links += [zp - z == (yp[l] - y[l]) + total, rhs == c2 * c1 * delta]
        claims.append(Abs(zp - z) <= (1 + c1 * c2) * delta)
    st.links.append(c1d >= 0)
    return st.prove(z3.And(claims), timeout_s, f"P_ffn_d{d}_h{h}", keep_dir)


def prove_compose(H: int, timeout_s: float, keep_dir: Path | None = None, n_keys_max: int | None = None) -> Verdict:
    """Return the verdict of the composition to r eps + a with H heads (S and E ASSUMED, see module doc).

    The number of key positions N is a symbolic real >= 1; with n_keys_max it is restricted to
    1 <= N <= n_keys_max (so that the assumed S and E are needed only where they were proved).
    """
    eps, X, tau, x, N, lip, ey, ez = z3.Reals("eps X tau x N LipF err_y err_z")
    A, Bc = reals("A_sum", H), reals("B_col", H)
    sig, dal, oh = reals("score_err", H), reals("alpha_err", H), reals("head_err", H)
    hyps = [eps >= 0, eps <= 1, X > 0, tau > 0, x > 0, x < 1, N >= 1, lip >= 0]
    if n_keys_max is not None:
        hyps.append(N <= n_keys_max)
    for h in range(H):
        hyps += [A[h] >= 0, Bc[h] >= 0, sig[h] >= 0, dal[h] >= 0, oh[h] >= 0]
        hyps.append(sig[h] <= A[h] * (2 * X + 1) * eps)  # P.score (proved)
        hyps.append(dal[h] * tau <= sig[h] + 2 * (N - 1) * x * tau)  # S + E (ASSUMED): dal <= sig/tau + 2(N-1)x
        hyps.append(oh[h] <= Bc[h] * eps + Bc[h] * X * dal[h])  # P.head (proved)
    hyps.append(ey <= eps + Sum(oh))  # residual: triangle inequality
    hyps.append(ez <= (1 + lip) * ey)  # P.ffn (proved)
    # Claim ez <= r eps + a, multiplied through by tau > 0.
    r_tau = (1 + lip) * (tau + Sum([Bc[h] * (tau + X * (2 * X + 1) * A[h]) for h in range(H)]))
    a = 2 * (1 + lip) * X * (N - 1) * x * Sum(Bc)
    claim = ez * tau <= r_tau * eps + a * tau
    suffix = f"_N{n_keys_max}" if n_keys_max is not None else ""
    return prove(hyps, claim, timeout_s=timeout_s, name=f"P_compose_H{H}{suffix}", keep_dir=keep_dir)


def prove_P(
    size: int,
    w: Fraction,
    x_box: Fraction,
    timeout_s: float,
    keep_dir: Path | None = None,
    n_head: int = 2,
    hidden: int | None = None,
    heads: int = 2,
    n_keys_max: int | None = None,
    ffn_widths: list[int] | None = None,
    vary: bool = False,
) -> list[Verdict]:
    """Return the verdicts of every step of P at dimension d = size.

    Default (vary=False): head step at n_head positions, FFN width ``hidden`` (default d), H = heads.
    vary=True: head step at every n = 1..n_head, FFN at every width in ffn_widths (independent of d),
    composition at every H = 1..heads (symbolic N <= n_keys_max) -- the composition does not depend
    on d, so it is asked at d = 1 only.
    """
    d = size
    if not vary:
        return [
            prove_score(d, w, x_box, timeout_s, keep_dir),
            prove_head(n_head, d, w, x_box, timeout_s, keep_dir),
            prove_ffn(d, hidden or d, w, timeout_s, keep_dir),
            prove_compose(heads, timeout_s, keep_dir, n_keys_max),
        ]
    out = [prove_score(d, w, x_box, timeout_s, keep_dir)]
    out += [prove_head(n, d, w, x_box, timeout_s, keep_dir) for n in range(1, n_head + 1)]
    out += [prove_ffn(d, h, w, timeout_s, keep_dir) for h in (ffn_widths or [d])]
    if d == 1:
        out += [prove_compose(H, timeout_s, keep_dir, n_keys_max) for H in range(1, heads + 1)]
    return out


def check_P(
    d_max: int,
    n_head: int,
    heads: int,
    timeout_s: float,
    weight_box: Any = 2.0,
    act_box: Any = 4.0,
    keep_dir: Path | None = None,
    budget_s: float | None = None,
    n_keys_max: int | None = None,
    ffn_widths: list[int] | None = None,
) -> CheckRun:
    """Return Lemma 25's steps proved for every dimension d <= d_max, with positions, heads and FFN widths varied.

    Per d: the score step; the head step at EVERY n = 1..n_head positions; the FFN step at every
    width in ffn_widths (default [1..4], independent of d); at d = 1 the composition for EVERY
    H = 1..heads heads with a symbolic number of key positions 1 <= N <= n_keys_max (no upper
    limit if None), S and E assumed there (run.covered says where they were proved).
    """
    d_max = check_size("P: dimension bound d", d_max, MAX_D_P)
    n_head = check_size("P: positions n", n_head, MAX_N_P)
    heads = check_size("P: heads H", heads, MAX_H_P)
    widths = [check_size("P: FFN width", h, MAX_D_P) for h in (ffn_widths or [1, 2, 3, 4])]
    if n_keys_max is not None:
        n_keys_max = check_size("P: key positions N", n_keys_max, 4096)
    timeout_s = check_timeout(timeout_s)
    w, xb = check_box("P: weight box", weight_box), check_box("P: activation box", act_box)
    run = CheckRun("smt.P.layer_steps", "P", "proved", size_label="d")
    run.extra = {
        "n_head": n_head,
        "heads": heads,
        "weight_box": str(w),
        "act_box": str(xb),
        "ffn_widths": widths,
        "n_keys_max": n_keys_max,
        "assumed": ["S (softmax Lipschitz)", "E (softmax vs hardmax)"],
    }
    run.covered = {
        "varied": {
            "head-step positions n": f"1..{n_head} (every d)",
            "FFN width h": ", ".join(map(str, widths)) + " (every d, independent of d)",
            "heads H (composition)": f"1..{heads}",
            "key positions N (composition)": (f"1 <= N <= {n_keys_max}, symbolic real" if n_keys_max else "every N >= 1, symbolic real"),
        },
        "fixed": {
            "weight box": f"|entries| <= {w} (W_Q W_K^T, W_V W_O, W1, W2, b1, b2)",
            "activation box": f"X <= {xb}",
            "eps": "0 <= eps <= 1",
            "|B|_col, |W|_col, Lip F": "symbolic upper bounds",
        },
        "assumed": ["S (softmax Lipschitz) and E (softmax vs hardmax) as lemmas inside the composition (alpha error <= score error/tau + 2 (N-1) x)"],
    }
    return run_sizes(
        run,
        list(range(1, d_max + 1)),
        lambda d: [(v, None) for v in prove_P(d, w, xb, timeout_s, keep_dir, n_head, None, heads, n_keys_max, widths, vary=True)],
        budget_s,
    )


def check_ERR3_score(
    d_max: int, timeout_s: float, weight_box: float = 2.0, act_box: float = 4.0, keep_dir: Path | None = None, budget_s: float | None = None
) -> CheckRun:
    """Return Lemma 25's score step without eps <= 1 refuted (replayed in the spec) for every d <= d_max."""
    from hardsoft.smt.replay import replay_score_unguarded

    d_max = check_size("ERR3: dimension bound d", d_max, MAX_D_P)
    timeout_s = check_timeout(timeout_s)
    w, xb = check_box("ERR3: weight box", weight_box), check_box("ERR3: activation box", act_box)
    run = CheckRun("smt.ERR3.score_unguarded", "ERR3", "refuted", size_label="d")

    def one(d: int):
        v = search_score_unguarded(d, w, xb, timeout_s, keep_dir)
        return [(v, replay_score_unguarded(d, v.values) if v.status == "refuted" else None)]

    return run_sizes(run, list(range(1, d_max + 1)), one, budget_s)


# --------------------------------------------------------------------------- cvc5 (the same polynomial queries)


def cvc5_P(d: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return P's score step at dimension d for cvc5, asked directly (one query, the preset's boxes)."""
    sc = encode_score(d, check_box("P: weight box", st["weight_box"]), check_box("P: activation box", st["act_box"]))
    return [(f"P score step direct d={d}", to_smt2(sc["hyps"], z3.Abs(sc["err"]) <= sc["A_sum"] * (2 * sc["X"] + 1) * sc["eps"]), "unsat")]


def cvc5_ERR3_score(d: int, st: Mapping[str, Any]) -> list[Cvc5Query]:
    """Return the score step without eps <= 1 at dimension d for cvc5, with the search shape of search_score_unguarded."""
    sc = encode_score(d, check_box("ERR3: weight box", st["weight_box"]), check_box("ERR3: activation box", st["act_box"]), guard=False)
    shape = [sc["eps"] == 2] + [z3.Real(f"{v}_{k}") == 0 for v in ("xi", "xj") for k in range(d)]
    shape += [z3.Real(f"{v}_{k}") == sc["eps"] for v in ("xpi", "xpj") for k in range(d)]
    return [
        (
            f"score step without eps<=1 d={d} (search shape of smt.p_layer)",
            search_to_smt2(sc["hyps"] + shape, z3.Abs(sc["err"]) > sc["A_sum"] * (2 * sc["X"] + 1) * sc["eps"]),
            "sat",
        )
    ]


# --------------------------------------------------------------------------- the check


def run_P(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return check_P with a preset's settings."""
    return check_P(
        st["bound"],
        st["n_head"],
        st["heads"],
        st["timeout"],
        st["weight_box"],
        st["act_box"],
        keep_dir,
        st.get("budget"),
        st.get("n_keys_max"),
        st.get("ffn_widths"),
    )


def ledger_P(presets: Mapping[str, Mapping[str, Any]]) -> str:
    """Return the trust ledger's coverage text of P: the varied and fixed parameters of both presets, and the lemmas."""
    t, p = presets["tiny"], presets["paper"]
    return (
        f"varied: dimension d, head-step positions n <= {t['n_head']} / {p['n_head']}, FFN widths "
        f"{t['ffn_widths']} / {p['ffn_widths']} (independent of d), heads H <= {t['heads']} / "
        f"{p['heads']}, key positions N <= {t['n_keys_max']} / {p['n_keys_max']} (symbolic); fixed: "
        f"weight box |w| <= {t['weight_box']}, activation box X <= {t['act_box']}, "
        "eps <= 1; assumes S and E as lemmas (in the composition, for N key positions)"
    )


CHECKS: tuple[SmtCheck, ...] = (
    SmtCheck(
        name="smt.P.layer_steps",
        claim="P",
        expect=Expect.PROVED,
        run=run_P,
        presets={
            "tiny": {
                "bound": 3,
                "n_head": 3,
                "heads": 2,
                "ffn_widths": [1, 2, 3, 4],
                "n_keys_max": 16,
                "weight_box": 2.0,
                "act_box": 4.0,
                "timeout": 20,
                "budget": 100,
                "cvc5": [],
                "cvc5_timeout": 10,
                "yices": [1],
                "yices_bound": False,
                "yices_timeout": 3,
            },
            "paper": {
                "bound": 8,
                "n_head": 4,
                "heads": 4,
                "ffn_widths": [1, 2, 4, 8],
                "n_keys_max": 32,
                "weight_box": 2.0,
                "act_box": 4.0,
                "timeout": 120,
                "budget": 600,
                "cvc5": [1],
                "cvc5_timeout": 30,
                "yices": [1, 2],
                "yices_timeout": 10,
            },
        },
        size_label="d",
        min_size=1,
        max_size=MAX_D_P,
        z3_only="at d = 1 the main head step for n >= 2 positions and the main FFN step for width >= 2 "
        "(Yices times out in 3 s; dropping the atoms' nonlinear definitions makes them false, so "
        "no cheaper equivalent was found); the scalar lemmas, every link query, the score step, "
        "the head step at n = 1, the FFN step at width 1 and the composition are confirmed at "
        "d = 1; d >= 2 is not given to Yices in the tiny preset (its score step alone takes "
        "Yices about 12 s at d = 2)",
        cvc5=cvc5_P,
        cost_rank=2,
        assumes=(Lemma("smt.S.lipschitz", "S", "n_keys_max"), Lemma("smt.E.softmax_vs_hardmax", "E", "n_keys_max")),
        ledger_coverage=ledger_P,
    ),
)

__all__ = ["CHECKS", "PROVED", "check_P", "check_ERR3_score", "prove_P"]
