"""Every statement SMT check's encoded domain is compared with the domain its claim states (``smt.domains``).

The claim registry (``spec.claims.Claim.domains``) states, per statement check, the domain of the
check's variables (the sign head's count D in 0..n-1, the S-RASP prefix sum S in -i..i, ...).  The
queries a check really asks are read in a dry run (``smt.core.dry_run``: recorded, not solved), so
these tests are fast.  A narrowed encoding (a raised lower bound, a dropped negative case) must fail
the smt family's run for that check, with a message naming the check and the part of the domain
it leaves out; every encoding of today must cover its claim's domain.
"""

from __future__ import annotations

import pytest
import z3

from hardsoft.checks.families import smt as smt_family
from hardsoft.checks.result import Outcome
from hardsoft.smt import core, domains, heads, registry
from hardsoft.smt.check import Expect
from hardsoft.spec.claims import REGISTRY

STATEMENTS = [c for c in registry.CHECKS if c.expect is Expect.PROVED]


def _dry(check, settings):  # noqa: ANN001, ANN202 - a check, its settings -> its CheckRun
    with core.dry_run():
        return check.run(settings, None)


def test_every_statement_check_states_its_claims_domain() -> None:
    for c in STATEMENTS:
        assert domains.stated_domain(c), f"{c.name}: claim {c.claim} states no domain for it (spec/claims.py Claim.domains)"
    from hardsoft.checks.registry import validate_registry

    assert validate_registry() == []


def test_a_statement_check_without_a_stated_domain_fails_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from hardsoft.checks.registry import validate_registry
    from hardsoft.spec import claims

    reg = tuple(dataclasses.replace(c, domains={k: v for k, v in c.domains.items() if k != "smt.CNT.sign_margin"}) for c in claims.REGISTRY)
    monkeypatch.setattr(claims, "REGISTRY", reg)
    assert "SMT check smt.CNT.sign_margin: claim 'CNT' states no domain for it (Claim.domains in spec/claims.py)" in validate_registry()
    # and a domain is stated only for a statement check of that claim
    names = {c.name: c for c in registry.CHECKS}
    for claim in REGISTRY:
        for check in claim.domains:
            assert check in claim.smt and names[check].expect is Expect.PROVED, (claim.id, check)


@pytest.mark.parametrize("name", [c.name for c in STATEMENTS])
def test_encoding_covers_the_claims_domain(name: str) -> None:
    check = registry.get(name)
    settings = dict(check.presets["tiny"])
    assert domains.domain_problems(check, _dry(check, settings), settings) == []


def test_dry_run_solves_nothing() -> None:
    check = registry.get("smt.CNT.sign_margin")
    run = _dry(check, dict(check.presets["tiny"]))
    assert run.verdict == "proved" and all(r.seconds == 0.0 for recs in run.queries.values() for r in recs)


# --------------------------------------------------------------------------- planted narrowed encodings


def _narrow_sign(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sign head's count D: lower bound raised from 0 to 1."""
    real = heads.encode_sign

    def narrowed(n, sort=z3.Int):  # noqa: ANN001, ANN202
        v = real(n, sort)
        v["hyps"] = [*v["hyps"], v["D"] >= 1]
        v["lemma_hyps"] = [*v["lemma_hyps"], v["D"] >= 1]
        return v

    monkeypatch.setattr(heads, "encode_sign", narrowed)


def _narrow_srasp(monkeypatch: pytest.MonkeyPatch) -> None:
    """The S-RASP lookup's prefix sum S: the negative case dropped (S >= 0 in place of S >= -i)."""
    real = heads.encode_srasp

    def narrowed(visible_only, sort=z3.Int):  # noqa: ANN001, ANN202
        v = real(visible_only, sort)
        S, i = v["S"], v["i"]
        swap = {(S >= -i).sexpr(): S >= 0}
        v["hyps"] = [swap.get(h.sexpr(), h) for h in v["hyps"]]
        v["lemma_hyps"] = [swap.get(h.sexpr(), h) for h in v["lemma_hyps"]]
        return v

    monkeypatch.setattr(heads, "encode_srasp", narrowed)


def _narrow_S(monkeypatch: pytest.MonkeyPatch) -> None:
    """Statement S's ratio bound v: a lower bound raised (v >= 1/2 instead of v > 0)."""
    from hardsoft.smt import s_lipschitz

    real = s_lipschitz.encode_S

    def narrowed(n):  # noqa: ANN001, ANN202
        v = real(n)
        v["hyps"] = [*v["hyps"], v["v"] >= z3.RealVal("1/2")]
        return v

    monkeypatch.setattr(s_lipschitz, "encode_S", narrowed)


PLANTS = {
    "smt.CNT.sign_margin": (_narrow_sign, "D = 0", "D >= 1"),
    "smt.APP-DYCK.srasp_lookup_gap": (_narrow_srasp, "S = -", "S >= 0"),
    "smt.S.lipschitz": (_narrow_S, "v = ", "1/2 <= v"),
}


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_narrowed_encoding_fails_the_run(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The smt family's task for the check (proofs dry: only the domain comparison is real) fails it, naming the check,
    a point of the claim's domain the encoding leaves out, and the encoded hypothesis that excludes it."""
    plant, point, hyp = PLANTS[name]
    plant(monkeypatch)
    check = registry.get(name)
    settings = dict(check.presets["tiny"])
    if not check.symbolic:
        settings["bound"] = check.min_size + 2
    with core.dry_run():
        result = smt_family._task(check, settings, None)
    assert result.outcome is Outcome.FAILED and result.verdict == "domain narrowed", (result.verdict, result.detail)
    assert name in result.detail and point in result.detail and hyp in result.detail, result.detail


def test_a_refutation_may_search_a_narrower_region() -> None:
    twin = next(c for c in registry.CHECKS if c.expect is not Expect.PROVED)
    assert domains.domain_problems(twin, _dry(twin, dict(twin.presets["tiny"])), {}) == []
