"""The smt family of ``hardsoft check``: every check of smt.registry.CHECKS, with Yices and cvc5 second opinions, run in parallel.

Each check (smt/check.py: a statement, a wrong twin or an erratum, defined once beside its
encoding) runs over growing sizes and becomes one CheckResult:

* a statement (expected "proved"): OK when Z3 proved every size up to the preset's bound, no
  second solver disagreed, and its queries leave no part of the domain its claim states
  (``spec.claims.Claim.domains``) out (``smt.domains``: else FAILED, "domain narrowed", naming the
  check, the size and a point of the claim's domain the encoding excludes); UNDECIDED on unknown/timeout (the .smt2 files are kept under
  out_dir/smt/); FAILED if refuted or if a second solver contradicts Z3.  A statement that
  assumes lemmas (SmtCheck.assumes) is at most UNDECIDED unless every lemma was proved in the
  same run up to the size it needs (apply_assumptions); the reason is in its detail.
* a wrong twin or an erratum (expected "refuted"): OK with verdict "refuted-as-expected" only when
  every countermodel replays in the spec (smt/replay.py); a refutation that does not replay, or a
  twin that comes back proved, is FAILED.

cvc5 is an opinion, not the verdict: its "unknown"/"timeout"/"error" is reported as such; only a
contradiction (sat for a proved statement, unsat for a refuted twin) fails the check.  Both second
solvers report a disagreement as the structured field "disagree", never through their texts.

Presets: the names of spec.presets.PRESET_NAMES; each check carries its own settings per preset.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from hardsoft.checks.result import CheckResult, Outcome
from hardsoft.smt import registry
from hardsoft.smt.check import SmtCheck
from hardsoft.smt.domains import domain_problems
from hardsoft.smt.runs import CheckRun, sizes_phrase, sizes_text
from hardsoft.spec.presets import PRESET_NAMES

#: The verdict of a check whose own queries were proved but an assumed lemma was not (UNDECIDED).
LEMMA_NOT_PROVED = "lemma-not-proved"


def selected(claims: set[str] | None = None) -> list[SmtCheck]:
    """Return the checks of the given claims (all if None) and the checks of the lemmas they assume, in registry order."""
    table = registry.by_name()
    names = {c.name for c in table.values() if claims is None or c.claim in claims}
    todo = list(names)
    while todo:
        for lem in table[todo.pop()].assumes:
            if lem.check not in names:
                names.add(lem.check)
                todo.append(lem.check)
    return [c for c in table.values() if c.name in names]


def resolve_settings(
    preset: str, claims: set[str] | None = None, bound: int | None = None, timeout: float | None = None
) -> dict[str, dict[str, Any]]:
    """Return the settings of the selected checks (see ``selected``): the preset's, with ``bound`` (size; not for a
    symbolic check, whose one query set covers every size) and ``timeout`` (s per query) overriding.

    Raises ValueError naming the problem (unknown preset, a bound outside a selected check's
    documented range, a non-positive or absurd timeout) before anything runs.
    """
    from hardsoft.smt.core import check_size, check_timeout

    if preset not in PRESET_NAMES:
        raise ValueError(f"unknown SMT preset {preset!r}; known presets: {', '.join(PRESET_NAMES)}")
    if timeout is not None:
        timeout = check_timeout(timeout)
    out = {}
    for c in selected(claims):
        st = dict(c.presets[preset])
        if bound is not None and not c.symbolic:  # a symbolic check has no size to bound (one query set, every size)
            st["bound"] = check_size(f"--smt-bound for {c.name}", bound, c.max_size, minimum=c.min_size)
            st.pop("explore", None)
        if timeout is not None:
            st["timeout"] = timeout
        out[c.name] = st
    return out


# --------------------------------------------------------------------------- running one check


def run_check(check: SmtCheck, settings: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """Return the smt.runs.CheckRun of one check with the given settings, its coverage filled in."""
    run = check.run(settings, keep_dir)
    if run.name != check.name or run.expected != check.expected:
        raise ValueError(f"{check.name}: its runner returned {run.name!r} expecting {run.expected!r}, not {check.expected!r}")
    run.covered = covered(check, run)
    return run


def covered(check: SmtCheck, run: CheckRun) -> dict[str, Any]:
    """Return exactly what a finished check covered: the sizes run, every other varied parameter with its range,
    every fixed parameter, what the proof assumes, and what was NOT reached."""
    done = [row[0] for row in run.rows if not str(row[2]).endswith("(explore)")]
    ok = [row[0] for row in run.rows if row[2] == run.expected]
    base = dict(run.covered) if run.covered else {}
    if check.symbolic:  # one query set over a symbolic size (recorded as size 1) covers every size
        varied = {run.size_label: "symbolic (one query set)" if ok else "not reached"}
    else:
        varied = {f"{run.size_label} (size)": sizes_text(ok) + ("" if ok == done else f" (stopped at {done[-1]})")}
    varied.update(base.get("varied", {}))
    for k, v in check.cover.varied.items():
        varied.setdefault(k, v)
    fixed = {**check.cover.fixed, **base.get("fixed", {})}
    assumed = list(check.cover.assumed)
    if run.expected == "refuted":  # for a countermodel search these are notes, not assumptions of a proof
        return {"varied": varied, "fixed": fixed, "assumed": list(base.get("assumed", [])), "notes": assumed, "sizes_run": done}
    return {"varied": varied, "fixed": fixed, "assumed": list(base.get("assumed", [])) + assumed, "sizes_run": done}


def covered_text(cov: dict[str, Any]) -> str:
    """Return the one-cell readable form of a covered dict: varied; fixed; assumed."""
    if not cov:
        return ""
    parts = ["varied: " + "; ".join(f"{k} {v}" for k, v in cov.get("varied", {}).items())]
    if cov.get("fixed"):
        parts.append("fixed: " + "; ".join(f"{k} {v}" for k, v in cov["fixed"].items()))
    if cov.get("assumed"):
        parts.append("assumes: " + "; ".join(cov["assumed"]))
    if cov.get("notes"):
        parts.append("notes: " + "; ".join(cov["notes"]))
    return ". ".join(parts)


def run_cvc5_opinion(check: SmtCheck, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Return cvc5's opinion on one check: per query its answer, the overall opinion text, and "disagree" (bool).

    An "error" (parse error, crash, a verdict with a non-zero exit or stderr) is reported as such,
    distinct from "unknown"/"timeout"; only a contradicting answer sets "disagree".
    """
    from hardsoft.smt.solvers.cvc5 import cvc5_available, run_cvc5

    if not cvc5_available():
        return {"opinion": "unavailable", "disagree": False, "queries": []}
    rows = []
    for label, text, expected in check.cvc5_queries(settings):
        r = run_cvc5(text, settings.get("cvc5_timeout", 10))
        r.update(label=label, expected=expected)
        rows.append(r)
    statuses = [(r["status"], r["expected"]) for r in rows]
    contradicts = {"unsat": "sat", "sat": "unsat"}
    errors = [r for r in rows if r["status"] == "error"]
    err_txt = f"error ({len(errors)} of {len(rows)}: {errors[0]['detail'][:120]})" if errors else ""
    disagree = any(s == contradicts[e] for s, e in statuses)
    if disagree:
        opinion = "disagree"
    elif statuses and all(s == e for s, e in statuses):
        opinion = "agree"
    elif any(s == e for s, e in statuses):
        opinion = "agree (partly; " + (err_txt if errors else "others unknown/timeout") + ")"
    elif errors:
        opinion = err_txt
    else:
        opinion = "no opinion (unknown/timeout)" if statuses else "not run"
    return {"opinion": opinion, "disagree": disagree, "queries": rows}


# --------------------------------------------------------------------------- second solver (Yices)


def _yices_rows(records: list[tuple[int, Any]], timeout_s: float, budget_s: float, t_start: float) -> list[dict]:
    """Return one row per decided query: Z3's answer, Yices's answer on the exact exported query (under the logic of
    its sorts and linearity, smt.solvers.yices.smt_logic), agreement."""
    from hardsoft.smt.solvers import yices as Y

    rows = []
    for size, rec in records:
        row = {"size": size, "query": rec.name, "z3": rec.expect}
        if time.perf_counter() - t_start > budget_s:
            row.update(yices="not run (budget)", seconds=0.0, agreement="no opinion")
        else:
            r = Y.run_yices(Y.export_smt2(rec.assertions), timeout_s)
            row.update(yices=r["status"], seconds=r["seconds"], agreement=Y.compare(rec.expect, r["status"]))
            if r["detail"]:
                row["detail"] = r["detail"]
            pinned = Y.pin_model(rec.assertions, rec.model) if (rec.expect == "sat" and r["status"] in ("timeout", "unknown")) else None
            if pinned is not None:  # Yices checks Z3's exact model against the same query instead
                m = Y.run_yices(Y.export_smt2(pinned), timeout_s)
                row.update(yices=f"{m['status']} (model checked; search: {r['status']})", seconds=round(r["seconds"] + m["seconds"], 3))
                row["model_confirmed"] = m["status"] == "sat"  # Yices evaluated Z3's exact model and found it satisfies the query
                row["agreement"] = "agree" if m["status"] == "sat" else ("disagree" if m["status"] == "unsat" else "no opinion")
        rows.append(row)
    return rows


def _tally(rows: list[dict]) -> dict[str, Any]:
    """Return counts of agree / disagree / no-opinion answers (by Yices status) over rows."""
    no: dict[str, int] = {}
    for r in rows:
        if r["agreement"] == "no opinion":
            no[r["yices"]] = no.get(r["yices"], 0) + 1
    return {
        "queries": len(rows),
        "agree": sum(r["agreement"] == "agree" for r in rows),
        "disagree": sum(r["agreement"] == "disagree" for r in rows),
        "no_opinion": no,
    }


def _pick_sizes(spec: Any, done: list[int], with_bound: bool = True) -> list[int]:
    """Return the sizes (of those run) whose queries go to the second solver: "all", or a list (with_bound:
    the largest size run is added, so the bound itself is confirmed)."""
    if not done:
        return []
    if spec in (None, "all"):
        return list(done)
    return sorted({s for s in spec if s in done} | ({max(done)} if with_bound else set()))


def run_second_solver(check: SmtCheck, run: CheckRun, settings: Mapping[str, Any], keep_dir: Path | None = None) -> dict[str, Any]:
    """Return Yices's answers on the exact queries Z3 decided (at the chosen sizes), the overall opinion text,
    "confirmed" and "disagree" (bools: a disagreement anywhere fails the check).

    settings: "yices" ("all" or a list of sizes; the largest size reached is always included unless
    "yices_bound" is False), "yices_timeout" (s per query, hard kill), "yices_budget" (s per check,
    then "not run (budget)").  For a check with a reformulation (SmtCheck.reformulation: Yices does
    not decide its original queries), the sizes are re-proved through it (Z3 AND Yices on the
    reformulated queries), and the original queries are given to Yices only at the sizes in
    "yices_original", with "yices_original_timeout" (to measure, not to wait).
    """
    from hardsoft.smt.core import query_log
    from hardsoft.smt.solvers import yices as Y

    if not Y.yices_available():
        return {"solver": "yices", "opinion": "unavailable", "confirmed": False, "disagree": False, "rows": []}
    t0 = time.perf_counter()
    timeout_s = settings.get("yices_timeout", 10)
    budget_s = settings.get("yices_budget", 60)
    done = list(run.queries)
    reform = check.reformulation
    sizes = _pick_sizes(settings.get("yices", "all"), done, settings.get("yices_bound", True))
    orig_sizes = [s for s in settings.get("yices_original", sizes) if s in done] if reform else sizes
    decided = [(s, rec) for s in orig_sizes for rec in run.queries[s] if rec.expect in ("sat", "unsat")]
    rows = _yices_rows(decided, settings.get("yices_original_timeout", timeout_s) if reform else timeout_s, budget_s, t0)
    out: dict[str, Any] = {
        "solver": "yices-smt2 (Yices 2, each query under the logic of its sorts and linearity)",
        "sizes": orig_sizes,
        "rows": rows,
        **_tally(rows),
    }
    ref_rows: list[dict] = []
    if reform is not None:
        z3_status = []
        for i, n in enumerate(sizes):
            with query_log() as recs:
                vs = reform.prove(n, settings["timeout"], keep_dir, i == 0)
            z3_status += [v.status for v in vs]
            ref_rows += _yices_rows([(n, r) for r in recs if r.expect in ("sat", "unsat")], timeout_s, budget_s + 60, t0)
        out["reformulation"] = {
            "what": reform.what,
            "sizes": sizes,
            "z3": "proved" if all(s == "proved" for s in z3_status) else "/".join(sorted(set(z3_status))),
            "rows": ref_rows,
            **_tally(ref_rows),
        }
    all_rows = rows + ref_rows
    out["disagree"] = any(r["agreement"] == "disagree" for r in all_rows)
    out["confirmed"] = False
    z3_only = f"; Z3-only: {check.z3_only}" if check.z3_only else ""
    no = ", ".join(f"{v} {k}" for k, v in out["no_opinion"].items())
    if out["disagree"]:
        bad = next(r for r in all_rows if r["agreement"] == "disagree")
        out["opinion"] = f"DISAGREE ({bad['query']}: Z3 {bad['z3']}, Yices {bad['yices']})"
    elif rows and out["agree"] == len(rows):
        mc = sum(bool(r.get("model_confirmed")) for r in rows)
        out["opinion"] = (
            f"confirmed ({len(rows)} queries, sizes {sizes_text(orig_sizes)}"
            + (f"; {mc} of them by Yices checking Z3's exact model on the same query" if mc else "")
            + ")"
        )
        out["confirmed"] = True
    elif reform is not None and ref_rows and out["reformulation"]["agree"] == len(ref_rows) and out["reformulation"]["z3"] == "proved":
        out["opinion"] = (
            f"confirmed through a reformulation ({len(ref_rows)} queries, sizes {sizes_text(sizes)}); "
            f"the original case queries are Z3-only (Yices: {no or 'not run'})"
        )
        out["confirmed"] = True
    elif reform is not None and ref_rows and out["reformulation"]["agree"]:
        f = out["reformulation"]
        rno = ", ".join(f"{v} {k}" for k, v in f["no_opinion"].items())
        part = f"{f['agree']} of {len(ref_rows)} queries, sizes {sizes_text(sizes)}; {rno}"
        out["opinion"] = f"partly confirmed through a reformulation ({part}){z3_only}"
    elif out["agree"]:
        out["opinion"] = f"partly confirmed ({out['agree']} of {len(rows)} queries, sizes {sizes_text(orig_sizes)}; {no}){z3_only}"
    else:
        out["opinion"] = f"Z3-only (Yices: {no or 'nothing decided to confirm'})"
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def _to_result(check: SmtCheck, run: CheckRun, cvc5: dict[str, Any], seconds: float, second: dict[str, Any] | None = None) -> CheckResult:
    """Return the CheckResult of a finished check (see the module docstring for the mapping)."""
    from hardsoft.smt.core import HYPS_UNDECIDED, VACUOUS

    second = second or {"opinion": "not run", "confirmed": False, "disagree": False, "rows": []}
    # A statement must come back "proved", a twin or erratum "refuted" (replayed); a second solver's
    # disagreement fails either; unknown or undecided hypotheses are UNDECIDED; anything else FAILS
    # (refuted or vacuous statement, proved twin, refutation that did not replay).
    wanted = check.expected
    if run.verdict == wanted:
        if cvc5.get("disagree"):
            outcome, verdict = Outcome.FAILED, f"{wanted}-but-cvc5-disagrees"
        elif second.get("disagree"):
            outcome, verdict = Outcome.FAILED, f"{wanted}-but-yices-disagrees"
        else:
            outcome, verdict = Outcome.OK, "proved" if wanted == "proved" else "refuted-as-expected"
    elif run.verdict in ("unknown", HYPS_UNDECIDED):
        outcome, verdict = Outcome.UNDECIDED, run.verdict
    else:
        outcome, verdict = Outcome.FAILED, run.verdict
    assert verdict != "proved" or run.verdict == "proved"
    assert run.verdict != VACUOUS or outcome is Outcome.FAILED
    detail = f"{run.detail}; yices: {second.get('opinion')}; cvc5: {cvc5.get('opinion')}"
    nv = run.nonvacuity
    data = {
        "expected": run.expected,
        "kind": check.expect.value,
        "verdict": run.verdict,
        "size_label": run.size_label,
        "bound": run.bound,
        "bound_reached": run.bound_reached,
        "rows": run.rows,
        "cvc5": cvc5,
        "second_solver": second,
        "countermodels": run.countermodels,
        "smt2": run.smt2,
        "extra": run.extra,
        "covered": run.covered,
        "nonvacuity": {
            "per_size": nv,
            "proving_queries": sum(r[1] for r in nv),
            "non_vacuous": sum(r[2] for r in nv),
            "witnesses": run.witnesses,
            "seconds": round(run.nonvacuity_seconds, 3),
        },
    }
    data = json.loads(json.dumps(data, default=str))
    return CheckResult("smt", check.name, check.claim, outcome, verdict, seconds, detail, data)


def _task(check: SmtCheck, settings: Mapping[str, Any], keep_dir: str | None) -> CheckResult:
    """Run one check, its second solver (Yices) and its cvc5 opinion (in a pool worker); return its CheckResult."""
    t0 = time.perf_counter()
    kd = Path(keep_dir) if keep_dir else None
    try:
        run = run_check(check, settings, kd)
        narrowed = domain_problems(check, run, settings)
    except Exception as e:  # a crash is a failed check, reported with its message
        return CheckResult("smt", check.name, check.claim, Outcome.FAILED, "error", time.perf_counter() - t0, f"{type(e).__name__}: {e}")
    if narrowed:  # a proof over less than the claim's domain proves less than the ledger says
        detail = "the encoding proves less than the claim states: " + "; ".join(narrowed[:3])
        data = {"domain_problems": narrowed, "covered": run.covered}
        return CheckResult("smt", check.name, check.claim, Outcome.FAILED, "domain narrowed", time.perf_counter() - t0, detail, data)
    t1 = time.perf_counter()
    try:
        second = run_second_solver(check, run, settings, kd)
    except Exception as e:
        second = {"opinion": f"error: {type(e).__name__}: {e}", "confirmed": False, "disagree": False, "rows": []}
    second["seconds"] = round(time.perf_counter() - t1, 3)
    t2 = time.perf_counter()
    try:
        cvc5 = run_cvc5_opinion(check, settings)
    except Exception as e:
        cvc5 = {"opinion": f"error: {type(e).__name__}: {e}", "disagree": False, "queries": []}
    cvc5["seconds"] = round(time.perf_counter() - t2, 3)
    res = _to_result(check, run, cvc5, time.perf_counter() - t0, second)
    res.data["z3_seconds"] = round(t1 - t0, 3)
    return res


def run(
    preset: str,
    out_dir: Path,
    progress: Callable[[str], None],
    claims: set[str] | None = None,
    workers: int | None = None,
    bound: int | None = None,
    timeout: float | None = None,
) -> list[CheckResult]:
    """Return one CheckResult per selected SMT check (by claim ids, with the lemmas they assume), run in parallel processes.

    ``bound`` and ``timeout`` override the preset's size bound and per-query timeout of every selected check.
    """
    settings = resolve_settings(preset, claims, bound, timeout)
    from hardsoft.smt.core import cpu_count

    table = registry.by_name()
    checks = sorted((table[n] for n in settings), key=lambda c: c.cost_rank)  # stable: ties keep registry order
    keep_dir = Path(out_dir) / "smt"
    workers = workers or max(1, cpu_count())
    results: dict[str, CheckResult] = {}
    if not checks:
        return []
    with ProcessPoolExecutor(max_workers=min(workers, len(checks))) as pool:
        futs = {pool.submit(_task, c, settings[c.name], str(keep_dir)): c for c in checks}
        for f in as_completed(futs):
            c = futs[f]
            try:
                r = f.result()
            except Exception as e:  # worker died
                r = CheckResult("smt", c.name, c.claim, Outcome.FAILED, "error", 0.0, f"worker failed: {e}")
            results[c.name] = r
            progress(f"{c.name}: {r.verdict} ({r.seconds:.1f} s) {r.detail}")
    apply_assumptions(results, settings)
    return [results[n] for n in table if n in results]


def apply_assumptions(results: dict[str, CheckResult], settings: Mapping[str, Mapping[str, Any]]) -> None:
    """Make every result whose check assumes lemmas (SmtCheck.assumes) at most UNDECIDED unless each lemma was
    proved IN THIS RUN up to the size it needs; note in its covered data where each lemma was proved.

    A lemma counts when its check is OK and reached (every size up to) the size named by the
    assuming check's setting ``Lemma.needs``; a setting of None (every size) is never covered.
    The reason goes into the detail and into data["lemmas"].
    """
    table = registry.by_name()
    for name, res in results.items():
        check = table.get(name)
        if check is None or not check.assumes:
            continue
        notes, problems, lemmas = [], [], []
        for lem in check.assumes:
            needed = settings[name].get(lem.needs)
            r = results.get(lem.check)
            label = table[lem.check].size_label
            need_txt = f"needed for every {label} <= {needed}" if needed is not None else f"needed for every {label} ({lem.needs} = None)"
            if r is None:
                ok, state = False, f"{lem.label} not run in this run"
            else:
                proved = [row[0] for row in r.data.get("rows", []) if row[2] == "proved"]
                reached = r.data.get("bound_reached", 0)
                state = (
                    f"{lem.label} proved in this run for {sizes_phrase(label, proved)}"
                    if r.outcome is Outcome.OK
                    else f"{lem.label} NOT proved in this run ({r.verdict}; proved for {sizes_phrase(label, proved)})"
                )
                ok = r.outcome is Outcome.OK and needed is not None and reached >= needed
            notes.append(f"{state} ({need_txt})")
            lemmas.append({"lemma": lem.label, "check": lem.check, "needed": needed, "state": state, "ok": ok})
            if not ok:
                problems.append(f"{state}, {need_txt}")
        res.data["lemmas"] = lemmas
        if res.data.get("covered"):
            res.data["covered"].setdefault("assumed", []).append("; ".join(notes))
        if problems and res.outcome is Outcome.OK:
            res.outcome, res.verdict = Outcome.UNDECIDED, LEMMA_NOT_PROVED
            res.detail = f"undecided: an assumed lemma is not proved in this run ({'; '.join(problems)}); own queries: {res.detail}"


# --------------------------------------------------------------------------- markdown


def _rows_text(rows: list[list[Any]], label: str) -> str:
    """Return a compact 'size: seconds' list of the scaling rows (at most 12, always the last)."""
    if not rows:
        return ""
    pick = rows if len(rows) <= 12 else rows[:: max(1, len(rows) // 10)] + [rows[-1]]
    seen, out = set(), []
    for size, secs, verdict in pick:
        if size in seen:
            continue
        seen.add(size)
        mark = "" if verdict in ("proved", "refuted") else f" {verdict}"
        out.append(f"{label}={size}: {secs:.2f}s{mark}")
    return ", ".join(out)


def markdown_section(results: list[CheckResult]) -> str:
    """Return the SMT section of report.md: verdicts, the scaling table and the replayed countermodels."""
    smt = [r for r in results if r.family == "smt"]
    lines = [
        "## SMT checks (Z3, second solver Yices 2 on the same queries, cvc5 on native exp)",
        "",
        "How exp is handled and why it is sound: `smt/core.py` (module docstring).  A proving query counts as "
        "proved only when its hypotheses were also shown satisfiable (non-vacuous).",
        "",
        "| check | claim | outcome | verdict | covered | non-vacuous | seconds | Yices (same queries) | cvc5 |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in smt:
        d = r.data
        nv = d.get("nonvacuity") or {}
        nvt = (f"{nv.get('non_vacuous')}/{nv.get('proving_queries')}" if nv.get("proving_queries") else "search (model)") if d else ""
        cov = covered_text(d.get("covered") or {}) if d else ""
        esc = lambda t: str(t).replace("|", "\\|")  # noqa: E731
        lines.append(
            f"| `{r.name}` | {r.claim} | {r.outcome.value} | {r.verdict} | {esc(cov)} | {nvt} | "
            f"{r.seconds:.1f} | {esc((d.get('second_solver') or {}).get('opinion', '')) if d else ''} | "
            f"{esc((d.get('cvc5') or {}).get('opinion', '')) if d else ''} |"
        )
    lines += ["", "### Scaling (size reached against seconds per size)", "", "| check | rows |", "| --- | --- |"]
    for r in smt:
        if r.data.get("rows"):
            lines.append(f"| `{r.name}` | {_rows_text(r.data['rows'], r.data.get('size_label', 'n'))} |")
    cms = [(r, c) for r in smt for c in r.data.get("countermodels", [])[:1]]
    if cms:
        lines += ["", "### Countermodels replayed in the spec", ""]
        for r, c in cms:
            rep = c.get("replay") or {}
            shown = {k: v for k, v in rep.items() if k != "confirmed"}
            lines.append(
                f"- `{r.name}` ({r.claim}, {r.data.get('size_label', 'n')} = {c.get('size')}): confirmed by the spec: **{rep.get('confirmed')}**"
            )
            lines.append(f"  `{json.dumps(shown, default=str)[:600]}`")
    unknown = [p for r in smt for p in r.data.get("smt2", [])]
    if unknown:
        lines += ["", "### Kept .smt2 files (unknown)", ""] + [f"- `{p}`" for p in unknown[:20]]
    return "\n".join(lines) + "\n"
