module

public import HardSoft.Defs
public import HardSoft.Recursion
public import HardSoft.Softmax
public import HardSoft.Main

/-!
# HardSoft

Root module of the Lean part of the companion to Yang, Strobl, Chiang, Angluin,
"Simulating Hard Attention Using Soft Attention" (arXiv 2412.09925).

## Main results

See `HardSoft.Main`: statement C (Theorem 26 with the bootstrapping fix), the sufficient
condition of statement T, and the algebraic cores of statements E and Z.
-/

set_option autoImplicit false
