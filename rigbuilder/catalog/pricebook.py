"""The price book a catalog opens with: the shipped price observations and exchange rates, and the
rates the user edited in the preferences (the user's own prices are read with their parts)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from rigbuilder.catalog.schema import Problem
from rigbuilder.config import Paths
from rigbuilder.domain.money import PriceBook


def user_rates_path(paths: Paths) -> Path:
    """Exchange rates the user edited in the preferences (else the shipped ones are used)."""
    return paths.data_dir / "exchange-rates.json"


def price_book(paths: Paths, problems: list, notices: Optional[list] = None) -> PriceBook:
    """Shipped price observations and exchange rates; the user's edited rates when there are some
    (a broken file is reported in ``problems`` and, to be shown once, in ``notices``, and the
    shipped rates are used)."""
    from rigbuilder.catalog.prices import MoneyFileError, load_observations, load_rates, merge_rates
    from rigbuilder.domain.i18n import T

    rates = load_rates()
    up = user_rates_path(paths)
    if os.path.lexists(up):
        try:
            rates = merge_rates(rates, load_rates(up))
        except MoneyFileError as e:
            problems.append(Problem(str(up), "", f"{e}; the shipped exchange rates are used"))
            if notices is not None:
                notices.append(T("Exchange rates: {error}; the shipped exchange rates are used instead",
                                 error=e.args[0] if e.args else str(e)))
    return PriceBook.of(load_observations(), rates)
