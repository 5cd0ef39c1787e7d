"""One table of named score cases shared by the attention tests and the statement tests (style note 8).

Expected values are written out by hand from the definitions (not computed by the spec).
"""

from __future__ import annotations

import math

# name: (scores, tau, max set, gap, expected ahardmax, expected softmax or None)
CASES = {
    "single": ([7.0], 1.0, [0], math.inf, [1.0], [1.0]),
    "all-equal": ([1.0, 1.0, 1.0, 1.0], 0.3, [0, 1, 2, 3], math.inf, [0.25] * 4, [0.25] * 4),
    "two-way-tie": ([2.0, 2.0, 1.0], 1.0, [0, 1], 1.0, [0.5, 0.5, 0.0],
                    [math.e / (2 * math.e + 1), math.e / (2 * math.e + 1), 1 / (2 * math.e + 1)]),
    "unique-max": ([0.0, math.log(3.0)], 1.0, [1], math.log(3.0), [0.0, 1.0], [0.25, 0.75]),
    "negative": ([-5.0, -1.0, -3.0], 1e-12, [1], 2.0, [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]),
    "huge-scores": ([1e6, -1e6, 1e6], 1e-12, [0, 2], 2e6, [0.5, 0.0, 0.5], [0.5, 0.0, 0.5]),
    "hot": ([1e6, -1e6], 1e6, [0], 2e6, [1.0, 0.0], [1 / (1 + math.exp(-2.0)), math.exp(-2.0) / (1 + math.exp(-2.0))]),
}
