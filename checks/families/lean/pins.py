"""Statements pinned: a Lean module generated from the registry in which Lean itself confirms each claimed theorem, and what it rests on.

For every Lean theorem a claim of ``spec.claims.REGISTRY`` cites, ``spec.lean_statements``
holds its exact statement (``LEAN_STATEMENTS``), the facts that determine every definition
and structure such a statement uses (``LEAN_DEFINITIONS``) and its non-vacuity theorem at
``Rat`` (``LEAN_EXAMPLES``).  ``pin_module`` writes one module that imports the project and,
opening NO namespace (every project constant is named from the root, ``HardSoft.sumTo``, so
no project declaration can redirect a name), holds

    example : <statement> := @HardSoft.name                -- each claimed theorem
    example : <equation> := by intros; exact rfl           -- each definition's facts
    example : <constructor type> := @HardSoft.S.mk         -- each structure's fields
    example : <recursor type> := @HardSoft.T.rec           -- each inductive type's constructors
    example : <statement> := @HardSoft.nonvacuous_name     -- each non-vacuity theorem
    example : True := @HardSoftBundle.reached_<module>     -- (wasm) each file reached the end

The build compiles it after the project (it is never committed: it is regenerated from the
registry on every run).  Lean accepts a pin only if a constant of that name exists in the
compiled environment and its type is the stated one up to definitional equality, so:

* a theorem that was renamed, removed, hidden behind ``#exit`` or never compiled fails its
  pin ("unknown identifier/constant"); so does a file the bundle never reached the end of
  (its marker, ``checks.families.lean.bundle``);
* a theorem whose statement was weakened, strengthened or changed under the same name
  fails its pin ("type mismatch"); a definition whose body changed fails an equation, a
  structure with a field added or changed fails its constructor pin, an inductive type with a
  constructor added or changed its recursor pin;
* a deleted or changed non-vacuity theorem fails its pin;

and the failure names the pin's line in the generated module, the theorem (or definition,
example, file), the claim, and the registry entry's file and line.  What counts as "proved"
is decided from Lean's verdict on this module, never from a search of the sources.  The
registry's own consistency (``registry_problems``: every name a pinned text uses is pinned)
is checked in Python before Lean runs.  A name inside a structure's or inductive type's
namespace counts as pinned by it only if it is one of its listed members (a field, a
constructor): the certificate checker's definitions live in the namespace of the structure
``HardSoft.Cert``, and each must be pinned on its own.  ``UNPINNED`` names the few constants a
pinned text may use unpinned, each with its reason (the certificate checker ``check``, a
hypothesis whose meaning the soundness theorem does not depend on); no definition's equation
may use one.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hardsoft.checks.families.lean.messages import LeanMessage
from hardsoft.checks.families.lean.sources import LIB_NAME

if TYPE_CHECKING:
    from hardsoft.spec.lean_statements import LeanDefinition, LeanExample, LeanStatement

#: The generated module's name (compiled after every module it imports).
PIN_MODULE = "HardSoftPins"
#: How a definition's equations are proved in the pin module (definitional unfolding, nothing else).
BY_RFL = "by intros; exact rfl"
#: A project constant named in a pinned text (from the root: the pin module opens no namespace).
_PROJECT_NAME = re.compile(rf"(?<![\w.']){LIB_NAME}(?:\.[A-Za-z_][\w'!?]*)+")


@dataclass(frozen=True)
class Pin:
    """One pin: its owner's name, kind, claim ids, pinned text, registry location, and its lines in the pin module.

    kind -- "theorem" (a claimed theorem's statement), "definition" (one fact of a definition or
            structure), "example" (a non-vacuity theorem) or "reached" (a file of the bundle reached its end)
    """

    name: str
    claims: tuple[str, ...]
    statement: str
    origin: str  # "spec/lean_statements.py:123" (the registry entry)
    first_line: int
    last_line: int
    kind: str = "theorem"


@dataclass(frozen=True)
class Registry:
    """The pinned texts of ``spec.lean_statements`` and the claims citing each theorem (``registry_pins``)."""

    statements: Mapping[str, LeanStatement]
    claims: dict[str, tuple[str, ...]]
    definitions: Mapping[str, LeanDefinition]
    examples: Mapping[str, LeanExample]
    no_example: Mapping[str, str]
    unpinned: Mapping[str, str] = field(default_factory=dict)


def registry_pins() -> tuple[dict[str, LeanStatement], dict[str, tuple[str, ...]]]:
    """Return (LEAN_STATEMENTS, name -> claim ids) from the one registry ``spec.claims``."""
    from hardsoft.spec.claims import REGISTRY
    from hardsoft.spec.lean_statements import LEAN_STATEMENTS

    claims: dict[str, list[str]] = {}
    for c in REGISTRY:
        for n in c.lean:
            claims.setdefault(n, []).append(c.id)
    return dict(LEAN_STATEMENTS), {n: tuple(v) for n, v in claims.items()}


def registry(
    statements: Mapping[str, LeanStatement] | None = None,
    claims: dict[str, tuple[str, ...]] | None = None,
    definitions: Mapping[str, LeanDefinition] | None = None,
    examples: Mapping[str, LeanExample] | None = None,
) -> Registry:
    """Return the pinned registry (``statements``/``claims`` default to ``registry_pins()``; the rest to ``spec.lean_statements``'s).

    A test that checks part of the project passes the part's own ``definitions`` and ``examples`` too.
    """
    from hardsoft.spec.lean_statements import LEAN_DEFINITIONS, LEAN_EXAMPLES, NO_EXAMPLE, UNPINNED

    if statements is None or claims is None:
        reg_statements, reg_claims = registry_pins()
        statements = reg_statements if statements is None else statements
        claims = reg_claims if claims is None else claims
    return Registry(
        statements,
        claims,
        dict(LEAN_DEFINITIONS if definitions is None else definitions),
        dict(LEAN_EXAMPLES if examples is None else examples),
        dict(NO_EXAMPLE),
        dict(UNPINNED),
    )


def definition_texts(d: LeanDefinition) -> list[str]:
    """Return the Lean texts that pin a definition: its equations, then its constructor type (a structure), its recursor type (an inductive type)."""
    return [*d.equations, *([d.constructor] if d.constructor else []), *([d.recursor] if d.recursor else [])]


def project_names(text: str) -> set[str]:
    """Return the project constants (``HardSoft.X...``) a pinned text names."""
    return set(_PROJECT_NAME.findall(text))


def _pinned_owner(name: str, definitions: Mapping[str, LeanDefinition]) -> str | None:
    """Return the definition that pins ``name`` (itself, or the structure or inductive type one of whose listed members it is), or None.

    Only a listed member counts (``LeanDefinition.members``): ``HardSoft.Cert.run`` lives in the
    namespace of the structure ``HardSoft.Cert`` but is not one of its fields, so it needs its own pin.
    """
    if name in definitions:
        return name
    owner, _, member = name.rpartition(".")
    d = definitions.get(owner)
    if d is not None and member in d.members:
        return owner
    return None


def uses(text: str, definitions: Mapping[str, LeanDefinition]) -> set[str]:
    """Return the definitions a pinned text uses, transitively (through the texts that pin those definitions)."""
    seen: set[str] = set()
    todo = [text]
    while todo:
        for n in project_names(todo.pop()):
            owner = _pinned_owner(n, definitions)
            if owner is not None and owner not in seen:
                seen.add(owner)
                todo.extend(definition_texts(definitions[owner]))
    return seen


def registry_problems(reg: Registry) -> list[str]:
    """Return what is inconsistent in the pinned registry (checked before Lean runs; each problem fails the pins).

    A claimed theorem without a statement; a statement no claim cites; a project constant
    named in a pinned text that is neither pinned in ``LEAN_DEFINITIONS`` nor the pin's own
    subject (a definition the statements use would otherwise be unpinned), unless ``UNPINNED``
    gives it a reason; an ``UNPINNED`` name that a definition's equation uses (a structure's
    projection equations may name its field types), that is also
    pinned, or that no pinned text uses; a definition no pinned text uses; a claimed theorem with
    no non-vacuity theorem (unless ``NO_EXAMPLE`` says why none is needed); a non-vacuity theorem
    of a theorem no claim cites.
    """
    problems: list[str] = []
    for name in sorted(reg.claims):
        if name not in reg.statements:
            problems.append(f"{name} (claim {', '.join(reg.claims[name])}) has no pinned statement in spec/lean_statements.py LEAN_STATEMENTS")
    for name in sorted(set(reg.statements) - set(reg.claims)):
        problems.append(f"{name}: pinned in LEAN_STATEMENTS ({getattr(reg.statements[name], 'origin', '?')}) but cited by no claim")
    texts: list[tuple[str, str, str]] = [(n, str(st.statement), f"LEAN_STATEMENTS {n}") for n, st in reg.statements.items()]
    texts += [(n, t, f"LEAN_DEFINITIONS {n}") for n, d in reg.definitions.items() for t in definition_texts(d)]
    texts += [(n, e.statement, f"LEAN_EXAMPLES {n}") for n, e in reg.examples.items()]
    used: set[str] = set()
    used_unpinned: set[str] = set()
    for subject, text, where in texts:
        for n in sorted(project_names(text)):
            owner = _pinned_owner(n, reg.definitions)
            if owner is not None:
                if owner != subject:
                    used.add(owner)
            elif n in reg.unpinned:
                used_unpinned.add(n)
            elif n != subject:
                problems.append(f"{where} uses {n}, which LEAN_DEFINITIONS does not pin (definition pins: equations, constructor, recursor)")
    for n, d in sorted(reg.definitions.items()):
        if d.constructor is not None:  # a structure's equations are its projections: their binders are its fields' types
            continue
        for eq in d.equations:
            for u in sorted(project_names(eq) & set(reg.unpinned)):
                problems.append(
                    f"LEAN_DEFINITIONS {n}: an equation uses {u}, which is UNPINNED (a definition's meaning may not rest on an unpinned constant)"
                )
    for name in sorted(set(reg.unpinned) & set(reg.definitions)):
        problems.append(f"{name}: both pinned in LEAN_DEFINITIONS and listed in UNPINNED")
    for name in sorted(set(reg.unpinned) - used_unpinned - set(reg.definitions)):
        problems.append(f"{name}: listed in UNPINNED but no pinned text uses it")
    for name in sorted(set(reg.definitions) - used):
        problems.append(f"{name}: pinned in LEAN_DEFINITIONS ({reg.definitions[name].origin}) but no pinned statement uses it")
    witnessed = {e.of for e in reg.examples.values()}
    for name in sorted(reg.claims):
        if name not in witnessed and name not in reg.no_example:
            problems.append(f"{name} (claim {', '.join(reg.claims[name])}) has no non-vacuity theorem in LEAN_EXAMPLES (or a reason in NO_EXAMPLE)")
    for name, e in sorted(reg.examples.items()):
        if e.of not in reg.claims:
            problems.append(f"{name}: LEAN_EXAMPLES entry ({e.origin}) is the non-vacuity theorem of {e.of}, which no claim cites")
    return problems


def pin_module(
    statements: Mapping[str, LeanStatement],
    claims: dict[str, tuple[str, ...]],
    imports: Iterable[str],
    reg: Registry | None = None,
    reached: Iterable[tuple[str, str]] = (),
) -> tuple[str, list[Pin], list[str]]:
    """Return (Lean text of the pin module, its pins, problems) for the claimed theorems and what they rest on.

    ``statements`` maps a theorem name to an object with ``statement`` and ``origin``
    (``spec.lean_statements.LeanStatement``); ``claims`` maps each claimed name to its claim ids;
    ``reg`` adds the definitions and non-vacuity theorems (default: ``spec.lean_statements``'s);
    ``reached`` = (module, marker constant) of each file of the wasm bundle.  A claimed name
    without a statement is a problem (reported, and not pinned); so is every other
    inconsistency of ``registry_problems``.  The module opens no namespace.
    """
    reg = reg or registry(statements, claims)
    reg = Registry(statements, claims, reg.definitions, reg.examples, reg.no_example, reg.unpinned)
    problems = registry_problems(reg)
    lines = [
        "module",
        "",
        *[f"public import {m}" for m in imports],
        "",
        "/-! Generated by `hardsoft.checks.families.lean.pins` from `spec/lean_statements.py`: Lean must accept each",
        "claimed theorem's registered statement, the facts that pin each definition it uses, each non-vacuity",
        "theorem and (wasm) each file's end-of-file marker. No namespace is open: names are read from the root. -/",
        "",
        "set_option autoImplicit false",
        "",
    ]
    pins: list[Pin] = []

    def add(name: str, kind: str, claim_ids: tuple[str, ...], text: str, proof: str, origin: str, note: str) -> None:
        lines.append(f"-- {note}")
        first = len(lines) + 1
        body = text.strip().split("\n")
        lines.append(f"example : {body[0]}")
        lines.extend(f"    {b}" for b in body[1:])
        lines.append(f"    := {proof}")
        pins.append(Pin(name, claim_ids, text.strip(), origin, first, len(lines), kind))
        lines.append("")

    for name in sorted(claims, key=lambda n: (claims[n], n)):
        st = statements.get(name)
        if st is not None:
            origin = str(getattr(st, "origin", "?"))
            add(name, "theorem", claims[name], str(st.statement), f"@{name}", origin, f"{name} (claim {', '.join(claims[name])}; {origin})")
    users: dict[str, set[str]] = {}
    for name in claims:
        if name in statements:
            for used in uses(str(statements[name].statement), reg.definitions):
                users.setdefault(used, set()).add(name)
    for name, defn in sorted(reg.definitions.items()):
        ids = tuple(sorted({c for t in users.get(name, ()) for c in claims[t]}))
        for k, eq in enumerate(defn.equations, 1):
            add(name, "definition", ids, eq, BY_RFL, defn.origin, f"definition {name}, equation {k} ({defn.origin})")
        if defn.constructor:
            note = f"structure {name}: its constructor, its fields exactly ({defn.origin})"
            add(name, "definition", ids, defn.constructor, f"@{name}.mk", defn.origin, note)
        if defn.recursor:
            note = f"inductive type {name}: its recursor, its constructors exactly ({defn.origin})"
            add(name, "definition", ids, defn.recursor, f"@{name}.rec", defn.origin, note)
    for name, e in sorted(reg.examples.items()):
        add(name, "example", claims.get(e.of, ()), e.statement, f"@{name}", e.origin, f"non-vacuity of {e.of} ({e.origin})")
    for module, marker in reached:
        add(module, "reached", (), "True", f"@{marker}", "", f"{module}: the bundle reached the end of this file")
    return "\n".join(lines), pins, problems


def pin_failures(pins: list[Pin], messages: list[LeanMessage]) -> dict[str, list[LeanMessage]]:
    """Return, for each pin, the error messages Lean gave inside its lines."""
    out: dict[str, list[LeanMessage]] = {p.name: [] for p in pins}
    for m in messages:
        if m.severity != "error":
            continue
        for p in pins:
            if p.first_line <= m.line <= p.last_line:
                out[p.name].append(m)
    return out


def rejected_pins(pins: list[Pin], messages: list[LeanMessage]) -> dict[str, list[tuple[Pin, LeanMessage]]]:
    """Return, for each owner name with a rejected pin, (pin, first error inside it) for each of its rejected pins."""
    out: dict[str, list[tuple[Pin, LeanMessage]]] = {}
    for p in pins:
        inside = [m for m in messages if m.severity == "error" and p.first_line <= m.line <= p.last_line]
        if inside:
            out.setdefault(p.name, []).append((p, inside[0]))
    return out


_BINDER_SPLIT = re.compile(r"\s+")


def suggest(names: Iterable[str], lean_dir: Path | None = None) -> str:
    """Return registry-ready ``LeanStatement`` lines for theorems, from their source signatures (an authoring aid).

    The signature ``(binders) : type`` becomes ``∀ {FIELD} binders, type`` when the
    theorem uses the section's field variable ``α``, and the project's definitions and
    structures are named from the root (``sumTo`` -> ``HardSoft.sumTo``: the pin module opens
    no namespace).  Always check the result: Lean, in the pin module, is the judge.
    """
    from hardsoft.checks.families.lean.sources import LEAN_DIR, declared_names, lean_sources, signature, variables_in_scope
    from hardsoft.spec.lean_statements import FIELD

    lean_dir = lean_dir or LEAN_DIR
    where: dict[str, Path] = {}
    defined: dict[str, str] = {}  # short name -> full name of the project's definitions and structures
    for f in lean_sources(lean_dir):
        for kind, n, _ in declared_names(f):
            where[n] = f
            if kind in ("def", "abbrev", "structure"):
                defined[n.rsplit(".", 1)[-1]] = n
    short = re.compile(r"(?<![\w.'])(" + "|".join(map(re.escape, sorted(defined, key=len, reverse=True))) + r")(?![\w'])") if defined else None

    def qualify(text: str) -> str:
        return short.sub(lambda m: defined[m.group(1)], text) if short else text

    out = []
    for n in names:
        path = where.get(n)
        sig = signature(path, n) if path else None
        if sig is None:
            out.append(f"# {n}: not found in {lean_dir}")
            continue
        depth, cut = 0, None
        for i, ch in enumerate(sig):
            if ch in "([{⟨":
                depth += 1
            elif ch in ")]}⟩":
                depth -= 1
            elif ch == ":" and depth == 0:
                cut = i
                break
        binders, concl = (sig[:cut].strip(), sig[cut + 1 :].strip()) if cut is not None else ("", sig)
        binders, concl = qualify(binders), qualify(concl)
        generic = re.search(r"(?<![\w.])α(?![\w'])", sig) is not None
        context = (variables_in_scope(path, n) or "") if generic and path else ""
        parts = [p for p in (context, binders) if p]
        if context == " ".join(FIELD.split()):
            expr = f'over_field(\n            "{binders}, {concl}")'
        else:
            expr = f'"∀ {" ".join(parts)}, {concl}"' if parts else f'"{concl}"'
        out.append(f'    "{n}": LeanStatement(\n        {expr},\n        "..."),')
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Print the pin module generated from the registry (``--suggest NAME...``: registry lines from the sources)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--suggest"]:
        print(suggest(argv[1:]))
        return 0
    statements, claims = registry_pins()
    text, _pins, problems = pin_module(statements, claims, [LIB_NAME])
    print(text)
    for p in problems:
        print(f"problem: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
