"""The price feed (issue 38): from a file or a local http server, hostile feeds refused with a clear
message, all or nothing."""
from __future__ import annotations

import time

import pytest

from rigbuilder.files.pricefeed import FeedCancelled, fetch, nesting, read_feed
from rigbuilder.files.priceimport import PriceFileError
from tests.files.feedserver import GOOD_CSV, feed_server

TODAY = "2026-11-26"


@pytest.fixture(scope="module")
def server():
    with feed_server() as url:
        yield url


def test_a_good_feed_from_the_server_matches_every_row(server, index):
    feed = read_feed(fetch(server + "/good.csv"), server + "/good.csv", index, index.prices.rates, today=TODAY)
    assert feed.applicable and len(feed.preview.good) == 2
    used = feed.preview.good[0]
    assert (used.part_id, used.amount, used.currency, used.condition, used.date) == (
        "gpu-nvidia-rtx-3090-fe", 690, "USD", "used", "2026-11-02")
    js = read_feed(fetch(server + "/good.json"), "good.json", index, index.prices.rates, today=TODAY)
    assert js.applicable and js.preview.good[0].source == "lab sheet"


def test_a_feed_from_a_file(tmp_path, index):
    f = tmp_path / "feed.csv"
    f.write_bytes(GOOD_CSV)
    assert read_feed(fetch(str(f)), str(f), index, index.prices.rates, today=TODAY).applicable


@pytest.mark.parametrize("path, says", [("/bad-date.csv", "is not a day"), ("/future.csv", "in the future"),
                                        ("/currency.csv", "XYZ is not a currency")])
def test_one_bad_row_refuses_the_whole_feed(server, index, path, says):
    feed = read_feed(fetch(server + path), path, index, index.prices.rates, today=TODAY)
    assert not feed.applicable and len(feed.preview.bad) == 1 and len(feed.preview.good) == 2
    assert says in " ".join(feed.preview.bad[0].problems)
    assert "nothing applied" in feed.verdict()


def test_a_huge_feed_is_cut_off_at_the_cap(server):
    with pytest.raises(PriceFileError, match="larger than 1 MB"):
        fetch(server + "/huge.csv", max_bytes=1024 * 1024)


def test_a_deep_feed_is_refused_before_it_is_parsed(server, index):
    data = fetch(server + "/deep.json")
    assert nesting(data) > 32
    with pytest.raises(PriceFileError, match="nested deeper than 32 levels"):
        read_feed(data, "deep.json", index, index.prices.rates)
    assert nesting(b'[{"a": "[[[[[[["}]') == 2  # brackets in strings do not count


def test_a_slow_feed_times_out(server):
    t = time.monotonic()
    with pytest.raises(PriceFileError, match="took longer than 1 seconds"):
        fetch(server + "/slow.csv", timeout_s=1.0)
    assert time.monotonic() - t < 5


def test_cancel_stops_the_fetch(server):
    with pytest.raises(FeedCancelled):
        fetch(server + "/slow.csv", cancelled=lambda: True)


def test_unreachable_and_missing_feeds_say_so(server, tmp_path):
    with pytest.raises(PriceFileError, match="404"):
        fetch(server + "/missing.csv")
    with pytest.raises(PriceFileError, match="only http"):
        fetch("ftp://example.org/feed.csv")
    with pytest.raises(PriceFileError):
        fetch(str(tmp_path / "none.csv"))
