"""The argument types and options every ``hardsoft`` subcommand shares: one definition each.

- ``Parser``: an ArgumentParser whose errors are one line ``hardsoft: error: ...`` and exit status 2;
- ``positive_int(name)``, ``positive_float(name)``: argparse types naming the option in their errors;
- ``eps``: a target error in (0, 1];
- ``add_regime_option``: ``--regime``, its choices the constructive package's own ``REGIMES``;
- ``alphabet`` / ``add_alphabet_option``: ``--alphabet`` as ``ab`` (one letter per symbol) or
  ``a,b`` (comma-separated, for symbols longer than one character), the same in every command;
- ``add_lang_option`` / ``program_text``: ``--lang tl|brasp|crasp`` (the constructive package's
  ``LANGUAGES``, default tl) and the program's text from the positional argument or ``--file F``.

A bad value raises ``argparse.ArgumentTypeError``; the parser prints it as one line and exits 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from hardsoft.checks.runner import EXIT_BAD_INPUT
from hardsoft.constructive.lang import LANGUAGES
from hardsoft.constructive.logic import REGIMES
from hardsoft.spec.validate import require_eps, require_positive

#: The alphabet when --alphabet is not given.
DEFAULT_ALPHABET: tuple[str, ...] = ("a", "b")
#: The help text of --alphabet (both spellings).
ALPHABET_HELP = "symbols: 'ab' (one letter per symbol) or 'a,b' (comma-separated, for symbols longer than one character); default ab"


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print one line and exit 2."""
        sys.stderr.write(f"hardsoft: error: {message}\n")
        raise SystemExit(EXIT_BAD_INPUT)


def positive_int(name: str) -> Callable[[str], int]:
    """Return an argparse type for an integer >= 1 named in errors."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= 1, got {text!r}") from None
        if v < 1:
            raise argparse.ArgumentTypeError(f"{name} must be >= 1, got {v}")
        return v

    return parse


def non_negative_int(name: str) -> Callable[[str], int]:
    """Return an argparse type for an integer >= 0 named in errors."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= 0, got {text!r}") from None
        if v < 0:
            raise argparse.ArgumentTypeError(f"{name} must be >= 0, got {v}")
        return v

    return parse


def lengths(text: str) -> tuple[int, ...]:
    """Return the lengths of --length N[,N2,...]: integers >= 1 (argparse type)."""
    out = []
    for part in text.split(","):
        try:
            n = int(part.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"--length {text!r}: {part.strip()!r} is not an integer") from None
        if n < 1:
            raise argparse.ArgumentTypeError(f"--length {text!r}: lengths must be >= 1, got {n}")
        out.append(n)
    return tuple(dict.fromkeys(out))


def positive_float(name: str) -> Callable[[str], float]:
    """Return an argparse type for a finite positive float named in errors."""

    def parse(text: str) -> float:
        try:
            return float(require_positive(name, float(text)))
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return parse


def eps(text: str) -> float:
    """Return a target error in (0, 1] (argparse type)."""
    try:
        return require_eps(float(text))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def alphabet(text: str) -> tuple[str, ...]:
    """Return the alphabet of --alphabet: 'ab' (one symbol per character) or 'x,y,z' (comma-separated)."""
    syms = tuple(s.strip() for s in text.split(",")) if "," in text else tuple(text)
    if not syms or any(not s for s in syms):
        raise argparse.ArgumentTypeError(f"--alphabet {text!r}: empty symbol")
    if len(set(syms)) != len(syms):
        raise argparse.ArgumentTypeError(f"--alphabet {text!r} repeats a symbol")
    return syms


class Given(argparse.Action):
    """Store an option's value and record that it was given (``given``): a command refuses an option it does not use."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.given_options = {*getattr(namespace, "given_options", ()), option_string or self.dest}


def given(args: argparse.Namespace, option: str) -> bool:
    """Return whether an option recorded by ``Given`` (e.g. "--alphabet") was on the command line."""
    return option in getattr(args, "given_options", ())


def refuse_unused(args: argparse.Namespace, options: Sequence[str], why: str) -> None:
    """Refuse (ValueError) the given options among ``options``, which the run at hand does not use, saying why."""
    used = [o for o in options if given(args, o)]
    if used:
        raise ValueError(f"{' and '.join(used)} {'is' if len(used) == 1 else 'are'} not used {why}; leave {'it' if len(used) == 1 else 'them'} out")


def add_alphabet_option(p: argparse.ArgumentParser) -> None:
    """Add --alphabet (both spellings, default ab)."""
    p.add_argument("--alphabet", type=alphabet, default=DEFAULT_ALPHABET, action=Given, help=ALPHABET_HELP)


def add_regime_option(p: argparse.ArgumentParser) -> None:
    """Add --regime, its choices the compiler's REGIMES (default the first, bounded)."""
    p.add_argument(
        "--regime",
        choices=REGIMES,
        default=REGIMES[0],
        action=Given,
        help=f"{' or '.join(REGIMES)} (default {REGIMES[0]}): bounded position embeddings at tau = c/n, or unbounded ones (i, i^2, n) at tau = 1",
    )


def add_lang_option(p: argparse.ArgumentParser) -> None:
    """Add --lang, its choices the constructive package's LANGUAGES (default tl, the temporal logic)."""
    p.add_argument(
        "--lang",
        choices=tuple(LANGUAGES),
        default="tl",
        help=(
            "the program's language: tl (temporal logic, the default), brasp (B-RASP), crasp (C-RASP) or srasp "
            "(S-RASP: its own compiler, the program declares its alphabet); docs/languages.md, docs/srasp.md"
        ),
    )


def program_text(args: argparse.Namespace, positional: str = "formula") -> str:
    """Return the program's text: the positional argument, or the contents of --file (ValueError naming an unreadable file)."""
    path = getattr(args, "file", None)
    if path is None:
        text = getattr(args, positional)
        if text is None:
            raise ValueError(f"give the {positional} or --file FILE")
        return str(text)
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as e:
        raise ValueError(f"--file {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ValueError(f"--file {path}: not UTF-8 text") from None
