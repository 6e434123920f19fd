"""One declared table of a build's fields (issue 23): every door reads its limits, defaults and
titles, so what the window offers, what an edit stores and what a file may hold agree."""
from __future__ import annotations

import json

import pytest

from rigbuilder.domain import fields as F
from rigbuilder.domain import limits
from rigbuilder.domain.build import Build, GpuPlacement, Settings
from rigbuilder.domain.edits import ChangeSettings, EditError, SetAllPowerLimits, SetPowerLimit
from rigbuilder.domain.i18n import render
from rigbuilder.files.buildfile import BuildFileError, dumps, loads
from tests.builds import frank_2070, x99_4x3090

RTX_2080TI = "gpu-nvidia-rtx-2080-ti-fe"  # 260 W board power


def test_the_table_declares_every_setting_with_the_builds_defaults():
    assert list(F.SETTINGS) == [f.name for f in __import__("dataclasses").fields(Settings)]
    for key, f in F.SETTINGS.items():
        assert f.default == getattr(Settings(), key) and f.title and f.problem(f.default) is None, key


def test_one_power_limit_rule():
    assert F.power_limit_floor_w(350) == 175 and F.power_limit_floor_w(175) == 88
    assert F.limit_for(1000, 260) is None and F.limit_for(260, 260) is None and F.limit_for(259, 260) == 259.0
    assert F.limit_for(None, 260) is None and F.limit_for(150, None) == 150.0
    assert F.limit_at_fraction(350, 0.8) == 280.0 and F.limit_at_fraction(350, 1.0) is None


def test_a_limit_at_or_above_board_power_is_no_limit_for_one_gpu_as_for_all(index):
    b = Build(gpus=[GpuPlacement(RTX_2080TI, 1)])
    one = SetPowerLimit(0, 1000).applied_to(b, index)
    every = SetAllPowerLimits(1000).applied_to(b, index)
    assert one.gpus[0].power_limit_w is None and every.gpus[0].power_limit_w is None
    assert SetPowerLimit(0, 200).applied_to(b, index).gpus[0].power_limit_w == 200.0
    assert "no limit" in SetPowerLimit(0, 1000).remarks(b, index)[0]
    assert SetPowerLimit(0, 200).remarks(b, index) == []
    assert "at or above" in SetPowerLimit(0, 1000).text(b, index)


@pytest.mark.parametrize("code", ["eur", " Eur ", "EUR"])
def test_a_currency_code_is_normalised_once(index, code):
    s = ChangeSettings.of(currency=code).applied_to(frank_2070(), index).settings
    assert s.currency == "EUR"
    d = json.loads(dumps(frank_2070()))
    d["settings"]["currency"] = code
    assert loads(json.dumps(d)).settings.currency == "EUR"
    with pytest.raises(EditError, match="three-letter"):
        ChangeSettings.of(currency="euro").applied_to(frank_2070(), index)


def test_german_undo_texts_and_edit_errors_are_german(index):
    b = x99_4x3090()
    text = render(ChangeSettings.of(load_hours_per_day=6, price_per_kwh=0.2).text(b, index), "de")
    assert text.startswith("Ändern") and "load hours" not in text and "price per kwh" not in text.lower()
    assert "Stunden" in text and "kWh" in text
    for edit in (ChangeSettings.of(load_hours_per_day=30), SetAllPowerLimits(5000), SetPowerLimit(0, 5000)):
        with pytest.raises(EditError) as e:
            edit.applied_to(b, index)
        de = render(e.value.message, "de")
        assert de != str(e.value.message) and "must be" not in de and "power limit is" not in de, de
    with pytest.raises(EditError) as e:
        SetAllPowerLimits(300).applied_to(Build(), index)
    assert render(e.value.message, "de") != str(e.value.message)


def test_the_loader_and_the_edits_keep_one_set_of_limits(index):
    """The loader judges a build by limits.check: the same where and the same words."""
    b = x99_4x3090()
    b.settings.days_per_month = 40
    assert limits.check(b)[0][0] == "settings.days_per_month"
    with pytest.raises(BuildFileError, match=r"'settings.days_per_month' must be between 1 and 31"):
        loads(dumps(b))
    with pytest.raises(EditError, match=r"settings.days_per_month: must be between 1 and 31"):
        ChangeSettings.of(days_per_month=40).applied_to(x99_4x3090(), index)


def test_a_fraction_of_100_percent_or_more_is_no_limit():
    from rigbuilder.domain.fields import fraction_limit

    assert fraction_limit(None) is None and fraction_limit(1.0) is None and fraction_limit(1.2) is None
    assert fraction_limit(0.8) == 0.8 and fraction_limit(0.999) == 0.999


def test_hours_and_days_in_one_wording():
    from rigbuilder.domain.fields import load_words, usage_words
    from rigbuilder.domain.i18n import render

    assert load_words(8) == "8 h a day under load"
    assert usage_words(8, 4) == "8 h a day under load, 4 h idle"
    assert usage_words(8, 4.5, 30) == "8 h a day under load, 4.5 h idle, 30 days a month"
    assert render(usage_words(8, 4, 30), "de") == "8 h am Tag unter Last, 4 h im Leerlauf, 30 Tage im Monat"
