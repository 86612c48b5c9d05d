"""Fitted weights of the answer score (``answer/confidence.py``); written by
``tools/fit_confidence.py``, do not edit by hand.

Training data: questions generated from section headings of the corpus (see the tool).
"""

FEATURES: tuple[str, ...] = ("cosine", "agreement", "coverage", "heading", "routing")
INTERCEPT: float = -6.0
WEIGHTS: tuple[float, ...] = (12.0, 1.0, 1.0, 1.0, 0.5)
