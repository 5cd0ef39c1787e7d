"""What gets certified: a program (TL formula, B-RASP or C-RASP text) over an alphabet in a regime, and its prepared certificate.

``prepare`` compiles a ``Subject`` (the compiler's one-line ValueError is bad input), describes
the compiled model (``constructive.logic.certificate.describe``; NotCertifiable outside the
checker's fragment), reads the weights (of the compiled model, or of a saved model given instead)
and runs the mirror of the checker (``mirror.check``), whose one line names the first failing check.

``LIBRARY_REGIMES`` x the B-RASP and C-RASP libraries, ``TL_EXAMPLES`` and ``check_subjects`` (the
four certificates ``make check`` runs, in one Lean module) are the certified programs of the tests
and the check family.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardsoft.checks.families.certify.lean_text import Entry, make_tag
from hardsoft.checks.families.certify.mirror import check, crd
from hardsoft.constructive.logic.certificate import Certificate, ModelW, NotCertifiable, describe, model_weights
from hardsoft.constructive.logic.compiler import CompiledFormula
from hardsoft.spec.transformer import Model

#: The languages certified through the temporal-logic compiler.
LANGUAGES = ("tl", "brasp", "crasp")
#: TL examples certified in the tests (both regimes): the tour's formulas, anchored since / until, the
#: numerical predicates (mod, pos), first / last, Boolean nodes that share a coordinate, and a comparison with no count left.
TL_EXAMPLES: tuple[str, ...] = (
    "a S b",
    "a U b",
    "Y a & X b",
    "!a S (b & Y a)",
    "!b U (a & X b)",
    "mod(3, 1) & a | mod(2, 0) & Y b",
    "pos(2*i < n) | last & a",
    "first | Y a",
    "(Y a & Y b) | (Y b & Y a)",
    "a S (b S a)",
    "Y a & (#>[b] - #>[b] + 1 > 0)",
)
#: TL examples of strict comparisons of counts (#<, #>), each certified in one regime (both directions, both orientations, the
#: constant written by the position embedding or by an FFN, a gate reading a comparison in its sign head's layer).
STRICT_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("#<[a] > #<[b]", "bounded"),
    ("#>[a] >= 1", "unbounded"),
    ("#<[a] < 1", "unbounded"),
    ("X (#<[Y a] > #<[b])", "bounded"),
    ("(#>[a] <= #>[b]) & b", "bounded"),
    ("!(#<[a] > #<[b])", "bounded"),
    ("(#<[a] > 2) & Y b", "unbounded"),
)
#: TL examples of mixed comparisons of counts (#< with #>: lookups over positions at the mixed rule tau = c/max(n-1, 1), bounded
#: c/(n^2 max(n-1, 1))), certified in both regimes: one of each direction's count of one node, a gate over one and a previous,
#: coefficients and a constant, and one sharing its count head with a strict comparison read flipped.
MIXED_EXAMPLES: tuple[str, ...] = (
    "#<[a] > #>[a]",
    "(#<[a] > #>[b]) & Y b",
    "#<[a] + 1 > 2 * #>[b]",
    "(#<[a] > #<[b]) & (#<[a] > #>[a])",
)
#: The regimes every library program and TL example is certified in.
LIBRARY_REGIMES = ("bounded", "unbounded")


@dataclass(frozen=True)
class Subject:
    """A program to certify: language, text, alphabet, regime, and its library name ("" for a text given directly)."""

    language: str
    text: str
    alphabet: tuple[str, ...] = ("a", "b")
    regime: str = "bounded"
    name: str = ""

    @property
    def label(self) -> str:
        """Return the program in a few words: ``brasp dyck1_depth2``, ``tl `a S b```."""
        if self.name:
            return f"{self.language} {self.name}"
        one = " ".join(self.text.split())
        return f"{self.language} `{one if len(one) <= 60 else one[:57] + '...'}`"

    @property
    def title(self) -> str:
        """Return the one-line title: program, alphabet, regime."""
        return f"{self.label} over {','.join(self.alphabet)} ({self.regime})"

    @property
    def tag(self) -> str:
        """Return the certificate's Lean tag (distinct per program text, alphabet and regime)."""
        readable = (self.language, self.name or self.text, self.regime)
        return make_tag(readable, (self.language, self.name, self.regime, self.text, ",".join(self.alphabet)))


def library_subjects(regimes: tuple[str, ...] = LIBRARY_REGIMES, language: str = "brasp") -> list[Subject]:
    """Return every library program of ``language`` in each regime."""
    from hardsoft.constructive.lang.library import library

    return [Subject(x.language, x.text, x.alphabet, r, x.name) for x in library().values() if x.language == language for r in regimes]


def tl_subjects(regimes: tuple[str, ...] = LIBRARY_REGIMES) -> list[Subject]:
    """Return the TL examples in each regime."""
    return [Subject("tl", f, ("a", "b"), r) for f in TL_EXAMPLES for r in regimes]


def strict_subjects() -> list[Subject]:
    """Return the TL examples of strict comparisons, each in its regime."""
    return [Subject("tl", f, ("a", "b"), r) for f, r in STRICT_EXAMPLES]


def mixed_subjects(regimes: tuple[str, ...] = LIBRARY_REGIMES) -> list[Subject]:
    """Return the TL examples of mixed comparisons in each regime."""
    return [Subject("tl", f, ("a", "b"), r) for f in MIXED_EXAMPLES for r in regimes]


def check_subjects() -> list[Subject]:
    """Return the four certificates of ``make check`` (one Lean module): a B-RASP library program in each regime, an anchored since,
    and a C-RASP library program (comparisons of counts, unbounded)."""
    lib = {s.name: s for s in library_subjects(("bounded",))}
    crasp = {s.name: s for s in library_subjects(("unbounded",), "crasp")}
    return [
        lib["astar_bstar"],
        Subject("brasp", lib["no_bb"].text, ("a", "b"), "unbounded", "no_bb"),
        Subject("tl", "!a S (b & Y a)"),
        crasp["dyck1"],
    ]


def compile_subject(s: Subject) -> CompiledFormula:
    """Return the subject compiled by the temporal-logic compiler (ValueError: the compiler's one-line error)."""
    from hardsoft.checks.engine.programs import compile_text

    if s.language not in LANGUAGES:
        raise NotCertifiable(
            f"not certifiable yet: {s.language} programs (the checker covers the temporal-logic compiler's models: tl, brasp, crasp)"
        )
    if s.language == "tl":
        from hardsoft.constructive.logic import compile_formula, parse

        try:
            f = parse(s.text)
        except ValueError as e:
            shown = s.text if len(s.text) <= 80 else s.text[:77] + "..."
            raise ValueError(f"cannot parse the formula {shown!r}: {e}") from None
        return compile_formula(f, s.alphabet, s.regime)
    return compile_text(s.language, s.text, s.alphabet, s.regime).tl


@dataclass(frozen=True)
class Prepared:
    """A subject ready for Lean: the compiled formula, the certificate, the weights (compiled or saved) and the mirror's line."""

    subject: Subject
    compiled: CompiledFormula
    cert: Certificate
    weights: ModelW
    mirror: str | None

    def entry(self) -> Entry:
        """Return the certificate as an entry of a Lean module."""
        return Entry(self.subject.tag, self.subject.title, self.subject.text, self.cert, self.weights)


def readout_problem(cert: Certificate, model: Model) -> str | None:
    """Return why a model's read-out is not the certificate's formula at the last position with a threshold in [0, 1), else None.

    The Lean theorem is about coordinate ``crd root``; a model file's ``readout`` is what
    ``hardsoft simulate`` reads, so the two must agree (the coordinate holds exactly 0 or 1).
    """
    ro = model.readout
    want = crd(cert, cert.root)
    if ro is None:
        return f"read-out: the model has none; the certificate's formula is at coordinate {want} at the last position"
    if ro.coordinate != want or ro.position != "last" or not 0 <= ro.threshold < 1:
        got = f"coordinate {ro.coordinate} at the {ro.position} position > {ro.threshold}"
        return f"read-out: the model reads {got}; the formula is at coordinate {want}"
    return None


def prepare(s: Subject, model: Model | None = None) -> Prepared:
    """Return the subject compiled, described and checked by the mirror (``model``: a saved model to certify instead of the compiled one).

    ValueError: the program is bad input (the compiler's line); NotCertifiable: outside the
    checker's fragment, or a saved model whose read-out is not the formula's coordinate.
    """
    cf = compile_subject(s)
    cert = describe(cf)
    m = cf.model if model is None else model
    if tuple(m.alphabet) != tuple(s.alphabet):
        raise NotCertifiable(f"the model's alphabet {','.join(m.alphabet)} is not the program's {','.join(s.alphabet)}")
    problem = readout_problem(cert, m)
    if problem is not None:
        raise NotCertifiable(problem)
    weights = model_weights(m)
    return Prepared(s, cf, cert, weights, check(cert, weights))
