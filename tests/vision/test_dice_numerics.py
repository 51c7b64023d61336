"""The reader's closed-form small matrix helpers agree with numpy's general routines."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.dice import _column_median, _mean_scale, _singular_values

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
