"""The link figures the scaling model keeps are what fitting the shipped cases gives now."""
from __future__ import annotations

import dataclasses

import pytest

from rigbuilder.models import scaling


def test_the_kept_fit_is_what_fitting_gives():
    kept, fitted = dataclasses.astuple(scaling.LINK_FIT), dataclasses.astuple(scaling.fit_links())
    assert kept == pytest.approx(fitted, rel=1e-9), f"write LINK_FIT anew: {scaling.fit_links()!r}"
    assert scaling.link_fit() is scaling.LINK_FIT
