"""``check`` and ``cost`` in each language (issue 19): LANG / --lang pick it, Babel formats the figures."""
from __future__ import annotations

import pytest

from tests.cli_lang import run, write_rig


@pytest.fixture
def rig(tmp_path):
    return write_rig(tmp_path)


# language -> (words the check output must hold, the wall draw as the locale writes 1794 W)
CHECK = {
    "de": (["FEHLER", "Steckdose", "Netzteil", "Steckplätze", "Abhilfe:"], "1.794 W"),
    "fr": (["ERREUR", "alimentation", "emplacements", "solution :"], "1\u202f794 W"),
    "ja": (["エラー", "電源ユニット", "スロット", "対処:"], "1,794 W"),
    "zh_CN": (["错误", "电源", "插槽", "解决:"], "1,794 W"),
}
COST = {
    "de": ["Energie: 14,84 kWh am Tag", "Kosten: 2,37\xa0$ am Tag", "Kauf (Teile): mindestens 3.515,99\xa0$"],
    "fr": ["Énergie : 14,84 kWh par jour", "Coût : 2,37\xa0$US par jour", "Achat (pièces) : au moins 3\u202f515,99\xa0$US"],
    "ja": ["電力量: 1 日 14.84 kWh", "電気代: 1 日 $2.37", "購入(部品): 少なくとも $3,515.99"],
    "zh_CN": ["电量:每天 14.84 kWh", "电费:每天 US$2.37", "购买(部件):至少 US$3,515.99"],
}


@pytest.mark.parametrize("lang", sorted(CHECK))
def test_check_speaks_the_system_language(rig, capsys, monkeypatch, lang):
    monkeypatch.setenv("LANG", f"{lang}.UTF-8" if "_" in lang else f"{lang}_{lang.upper()}.UTF-8")
    rc, out, _ = run(capsys, "check", str(rig))
    words, wall = CHECK[lang]
    assert rc == 1
    for w in words:
        assert w in out, (lang, w)
    assert wall in out
    assert "Peak load" not in out and "fix:" not in out
    assert "power.circuit" in out  # codes stay as they are: they are what --only and the docs name


@pytest.mark.parametrize("lang", sorted(COST))
def test_cost_in_each_language(rig, capsys, lang):
    rc, out, _ = run(capsys, "cost", str(rig), "--lang", lang)
    assert rc == 0
    for line in COST[lang]:
        assert line in out, (lang, line, out)
    assert "a day" not in out


def test_lang_option_wins_over_the_locale_and_english_is_unchanged(rig, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    _, en, _ = run(capsys, "--lang", "en", "check", str(rig))
    assert "ERROR   power.circuit          About 1794 W at the wall" in en and "fix: Limit GPUs 1-4" in en
    _, en_cost, _ = run(capsys, "cost", str(rig), "--lang=en")
    assert "Cost:   2.37 USD a day, 71.21 USD a month, 866.38 USD a year" in en_cost
    assert "Purchase (parts): at least 3,515.99 USD (2 parts without a price)" in en_cost


def test_unknown_language_falls_back_to_english_without_error(rig, capsys):
    rc, out, err = run(capsys, "check", str(rig), "--lang", "tlh")
    assert rc == 1 and "About 1794 W at the wall" in out and not err


def test_json_stays_english_and_stable(rig, capsys):
    import json

    _, out, _ = run(capsys, "--lang", "de", "check", str(rig), "--json")
    data = json.loads(out)
    assert any(f["message"].startswith("About 1794 W") for f in data["findings"])


def test_report_findings_in_the_language_and_the_pdf_embeds_a_cjk_font(rig, tmp_path, capsys):
    import shutil
    import subprocess

    md = tmp_path / "r.md"
    rc, _, _ = run(capsys, "report", str(rig), "--lang", "de", "-o", str(md))
    assert rc == 0 and "Etwa 1.794 W an der Steckdose" in md.read_text(encoding="utf-8")
    if not shutil.which("pdffonts"):
        pytest.skip("pdffonts (poppler-utils) not installed")
    pdf = tmp_path / "r.pdf"
    rc, _, _ = run(capsys, "report", str(rig), "--lang", "ja", "-o", str(pdf))
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert rc == 0 and "ピーク負荷" in text
    if "CJK" not in fonts:
        pytest.skip("no CJK font installed (fonts-noto-cjk): Japanese would show as boxes")
    assert "CJK" in fonts


@pytest.mark.parametrize("lang, needle", [("de", "auf 78\xa0% ihrer Board-Leistung"), ("fr", "à 78\xa0% de sa puissance"),
                                          ("ja", "ボード電力の 78% に制限"), ("zh_CN", "板卡功率的 78%"),
                                          ("en", "Limit every GPU to 78% of its board power: about 4.4% less")])
def test_limits_in_each_language(rig, capsys, lang, needle):
    rc, out, _ = run(capsys, "limits", str(rig), "--lang", lang)
    assert rc == 0 and needle in out and "nvidia-smi -i 0 -pl" in out


def test_a_build_never_named_is_titled_in_the_reports_language(tmp_path, capsys):
    rig = tmp_path / "new.rig"
    assert run(capsys, "new", "--board", "mb-asrock-x99-ws-e", "-o", str(rig))[0] == 0
    for lang, title in (("en", "# Untitled build"), ("de", "# Unbenannter Build"), ("ja", "# ")):
        out = tmp_path / f"r-{lang}.md"
        assert run(capsys, "report", str(rig), "--format", "md", "-o", str(out), "--lang", lang)[0] == 0
        first = out.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(title) and (lang == "en" or "Untitled" not in first), first
