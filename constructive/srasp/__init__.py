"""S-RASP (RASP with prefix sums; Strobl et al. 2025), by stage: language, text syntax, interpreter, compiler, verification, library.

Public API (stable names; the language registry uses the first five):

* ``parse_program(text) -> Program``      -- the text syntax (``parser``, grammar ``srasp.lark``); ValueError, one line, on bad input;
* ``format_program(program) -> str``      -- its printer: ``parse_program(format_program(p)) == p``;
* ``interpret(program, word)``            -- every sequence of the program on a word, exact integers (``interpreter``; ``run_program``: the outputs);
* ``compile_program(program) -> Compiled`` -- the average-hard transformer (``compiler``; ``Compiled.tau(n)`` its temperature,
  ``claimed_gap`` its gap); ValueError naming the operation it cannot compile yet;
* ``verify_program(program, alphabet, max_len) -> VerifyResult`` -- compiled vs interpreted on every word up to max_len, hard and
  soft, every definition at every position (``verify``; ``verify_compiled`` for a given model, ``verify_sampled`` for random
  words of one length; ``VerifyResult.mismatches``).

Stages:

* ``language``    -- the operations and ``Program`` (validation: types, names, cycles, the integer bound ``MAX_INTEGER``);
* ``parser``      -- ``parse_program`` / ``format_program``;
* ``interpreter`` -- ``interpret`` and ``run_program``: the reference semantics;
* ``compiler``    -- ``compile_program`` -> ``Compiled`` (the encoding, ``claimed_gap``, ``tau_for``);
* ``verify``      -- ``verify_program`` / ``verify_compiled``;
* ``library``     -- the shipped programs (``programs/*.srasp``): ``library_names``, ``load_library``;
* ``dyck``        -- ``dyck_program`` (Dyck-k prefix validity, the library's dyck<k>) and ``reference_dyck`` (an independent stack).

The Boolean operations are called BoolNot / BoolAnd / BoolOr (and the interpreter ``interpret``) so that no name
collides with the temporal logic's ``Not`` / ``And`` / ``Or`` / ``evaluate`` (``constructive.logic``).
"""

from __future__ import annotations

from hardsoft.constructive.srasp.compiler import FEATURES, MAX_KEY_SCALE, Affine, Compiled, claimed_gap, compile_program, tau_for
from hardsoft.constructive.srasp.dyck import BRACKETS, dyck_program, reference_dyck
from hardsoft.constructive.srasp.interpreter import interpret, run_program
from hardsoft.constructive.srasp.language import (
    COMPARISONS,
    MASKS,
    MAX_INTEGER,
    SELECT_MASKS,
    Aggregate,
    BoolAnd,
    BoolConst,
    BoolNot,
    BoolOr,
    Compare,
    Cond,
    Index,
    IsConst,
    Lin,
    Once,
    Op,
    PrefixSum,
    Program,
    ProgramError,
    Psum,
    Select,
    Token,
)
from hardsoft.constructive.srasp.library import library_names, library_text, load_library
from hardsoft.constructive.srasp.parser import format_program, parse_program
from hardsoft.constructive.srasp.verify import Mismatch, VerifyResult, verify_compiled, verify_program, verify_sampled

__all__ = [
    "Aggregate",
    "BoolAnd",
    "BoolConst",
    "BoolNot",
    "BoolOr",
    "COMPARISONS",
    "Compare",
    "Cond",
    "Index",
    "IsConst",
    "Lin",
    "MASKS",
    "MAX_INTEGER",
    "Once",
    "Op",
    "PrefixSum",
    "Program",
    "ProgramError",
    "Psum",
    "SELECT_MASKS",
    "Select",
    "Token",
    "interpret",
    "run_program",
    "FEATURES",
    "MAX_KEY_SCALE",
    "Affine",
    "Compiled",
    "claimed_gap",
    "compile_program",
    "tau_for",
    "BRACKETS",
    "dyck_program",
    "reference_dyck",
    "format_program",
    "parse_program",
    "library_names",
    "library_text",
    "load_library",
    "Mismatch",
    "VerifyResult",
    "verify_compiled",
    "verify_program",
    "verify_sampled",
]
