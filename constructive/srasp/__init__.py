"""S-RASP (RASP with prefix sums), by stage: the language, its reference interpreter, the compiler to an AHAT, the Dyck-k program.

* ``language``    -- the operations (Token, BoolNot / BoolAnd / BoolOr, Psum, IsConst, Aggregate, Once) and ``Program`` (validation);
* ``interpreter`` -- ``interpret`` (every sequence, exact integers) and ``run_program`` (the output symbols): the reference semantics;
* ``compiler``    -- ``compile_program`` -> ``Compiled`` (the encoding, the gap ``claimed_gap``, the temperature ``tau_for``);
* ``dyck``        -- ``dyck_program`` (Dyck-k prefix validity in S-RASP) and ``reference_dyck`` (an independent stack).

The Boolean operations are called BoolNot / BoolAnd / BoolOr (and the interpreter ``interpret``) so that no name
collides with the temporal logic's ``Not`` / ``And`` / ``Or`` / ``evaluate`` (``constructive.logic``).
"""

from __future__ import annotations

from hardsoft.constructive.srasp.compiler import FEATURES, Compiled, claimed_gap, compile_program, tau_for
from hardsoft.constructive.srasp.dyck import BRACKETS, dyck_program, reference_dyck
from hardsoft.constructive.srasp.interpreter import interpret, run_program
from hardsoft.constructive.srasp.language import MASKS, Aggregate, BoolAnd, BoolNot, BoolOr, IsConst, Once, Op, Program, Psum, Token

__all__ = [
    "Aggregate",
    "BoolAnd",
    "BoolNot",
    "BoolOr",
    "IsConst",
    "MASKS",
    "Once",
    "Op",
    "Program",
    "Psum",
    "Token",
    "interpret",
    "run_program",
    "FEATURES",
    "Compiled",
    "claimed_gap",
    "compile_program",
    "tau_for",
    "BRACKETS",
    "dyck_program",
    "reference_dyck",
]
