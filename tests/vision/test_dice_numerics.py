"""The reader's closed-form small matrix helpers and its fast 8-bit forms agree with numpy's
general routines and the formulas they stand for."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.dice import (
    MIN_PIP_STEP,
    PIP_CONTRAST,
    _column_median,
    _mean_scale,
    _singular_values,
    _square_medians,
    _step_need,
)

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, (5, 2, 2), elements=finite))
def test_singular_values_match_numpy(stack):
    want = np.linalg.svd(stack, compute_uv=False)
    assert np.allclose(_singular_values(stack), want, atol=1e-9 * (1 + np.abs(want).max()))
    for a, w in zip(stack, want):
        assert abs(_mean_scale(a) - w.mean()) <= 1e-9 * (1 + w.max())


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: arrays(np.float32, (n, 3), elements=st.floats(
    0, 255, width=32))))
def test_column_median_matches_numpy(values):
    assert np.allclose(_column_median(values), np.median(values, axis=0), rtol=0, atol=1e-4)


def test_step_need_is_the_contrast_formula_rounded_at_every_level():
    # Every 8-bit level: PIP_CONTRAST times the level plus PIP_CONTRAST * 12, rounded, and at
    # least MIN_PIP_STEP; no level lies near a rounding tie, so no platform rounds one otherwise.
    levels = np.arange(256, dtype=np.uint8).reshape(16, 16)
    exact = levels.astype(np.float64) * PIP_CONTRAST + PIP_CONTRAST * 12
    assert np.abs(exact - np.floor(exact) - 0.5).min() > 0.01
    want = np.maximum(np.clip(np.rint(exact), 0, 255), MIN_PIP_STEP)
    assert np.array_equal(_step_need(levels), want.astype(np.uint8))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.booleans())
def test_square_medians_are_each_squares_median(seed, rad, sliced):
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (48, 64), dtype=np.uint8)
    if sliced:  # (a view into a wider frame, as a look's window is)
        image = rng.integers(0, 256, (60, 90), dtype=np.uint8)[5:53, 11:75]
    xi = rng.integers(rad, 64 - rad, 20)
    yi = rng.integers(rad, 48 - rad, 20)
    want = [np.median(image[y - rad:y + rad + 1, x - rad:x + rad + 1]) for x, y in zip(xi, yi)]
    assert _square_medians(image, xi, yi, rad).tolist() == want
