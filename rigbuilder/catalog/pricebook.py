"""The price book a catalog opens with: the shipped price observations and exchange rates, and the
rates the user edited in the preferences (the user's own prices are read with their parts)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from rigbuilder.catalog.cachefile import share_values, short_key, write_pickle
from rigbuilder.catalog.schema import Problem
from rigbuilder.config import Paths
from rigbuilder.domain.money import PriceBook


def user_rates_path(paths: Paths) -> Path:
    """Exchange rates the user edited in the preferences (else the shipped ones are used)."""
    return paths.data_dir / "exchange-rates.json"


PRICES_FORMAT = 1


def _prices_key() -> str:
    """What the shipped prices' snapshot is valid for: the price files' and the ECB rates file's
    names, sizes and modification times, the price classes' fields and the snapshot format."""
    import dataclasses

    from rigbuilder.catalog.prices import ecb_rates_file, price_files
    from rigbuilder.domain.money import ExchangeRates, PriceObservation

    text = [f"prices {PRICES_FORMAT}"]
    for f in (*price_files(), ecb_rates_file()):
        st = f.stat()
        text.append(f"{f}\0{st.st_size}\0{st.st_mtime_ns}\n")
    for cls in (PriceObservation, ExchangeRates):
        text.append(f"{cls.__name__}:{','.join(f.name for f in dataclasses.fields(cls))}\n")
    return short_key("".join(text))


def shipped_price_book(paths: Paths) -> PriceBook:
    """The shipped price observations and the ECB's exchange rates, from their snapshot in the
    cache folder (pickled, keyed by ``_prices_key``) or, when there is none or it is another
    version's or damaged, read and checked from the files (5,000 observations: 0.1-0.2 s of every
    start before this) and snapshotted. A broken shipped file raises MoneyFileError as reading
    it does."""
    import pickle

    from rigbuilder.catalog.prices import load_observations, load_rates
    from rigbuilder.domain.money import ExchangeRates, PriceObservation

    try:
        snap = paths.cache_dir / f"prices-{_prices_key()}.pickle"
    except OSError:  # a shipped file missing: reading it says which
        snap = None
    if snap is not None:
        try:
            book = pickle.loads(snap.read_bytes())  # our own cache file, written below
        except Exception:  # noqa: BLE001 - missing, damaged or foreign: read from the files again
            book = None
        if (isinstance(book, PriceBook) and isinstance(book.rates, ExchangeRates)
                and isinstance(book.observations, dict)
                and all(isinstance(v, tuple) and v and isinstance(v[0], PriceObservation)
                        for v in list(book.observations.values())[:20])):
            return book
    book = PriceBook.of(load_observations(), load_rates())
    if snap is not None:
        share_values(o for v in book.observations.values() for o in v)
        write_pickle(snap, book)
        for old in paths.cache_dir.glob("prices-*.pickle"):  # earlier versions' snapshots
            if old != snap:
                try:
                    old.unlink()
                except OSError:
                    pass
    return book


def price_book(paths: Paths, problems: list, notices: Optional[list] = None) -> PriceBook:
    """Shipped price observations and exchange rates; the user's edited rates when there are some
    (a broken file is reported in ``problems`` and, to be shown once, in ``notices``, and the
    shipped rates are used)."""
    from rigbuilder.catalog.prices import MoneyFileError, load_rates, merge_rates
    from rigbuilder.domain.i18n import T

    book = shipped_price_book(paths)
    up = user_rates_path(paths)
    if os.path.lexists(up):
        try:
            book = book.with_rates(merge_rates(book.rates, load_rates(up)))
        except MoneyFileError as e:
            problems.append(Problem(str(up), "", f"{e}; the shipped exchange rates are used"))
            if notices is not None:
                notices.append(T("Exchange rates: {error}; the shipped exchange rates are used instead",
                                 error=e.args[0] if e.args else str(e)))
    return book
