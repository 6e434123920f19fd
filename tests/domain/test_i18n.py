"""Translations (issue 19): every finding text and CLI check/cost string is in the catalogs, translated
into de, fr, ja and zh_CN with the same placeholders; English stays exactly as the rules write it."""
from __future__ import annotations

import ast
import re
import importlib.util
import string
from pathlib import Path

import pytest

from rigbuilder.domain import i18n
from rigbuilder.domain.i18n import Money, T, catalog, choose_language, render, texts_of
from rigbuilder.rules.engine import RULE_CODES, run_checks

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("de", "fr", "ja", "zh_CN")


def _script():
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def msgids() -> list[str]:
    return [m.id for m in _script().template() if m.id]


def _fields(s: str) -> list[tuple[str, str]]:
    return sorted((name, spec) for _, name, spec, _ in string.Formatter().parse(s) if name is not None)


def test_every_marked_text_is_in_every_catalog_translated_with_the_same_placeholders(msgids):
    assert len(msgids) > 100  # the rules, the check and cost output
    texts = [m for m in msgids if isinstance(m, str)]
    for lang in LANGS:
        cat = catalog(lang)
        missing = [m for m in texts if not cat.get(m, "").strip()]
        assert not missing, f"{lang}: untranslated: {missing[:5]}"
        wrong = [(m, cat[m]) for m in texts if _fields(m) != _fields(cat[m])]
        assert not wrong, f"{lang}: placeholders differ: {wrong[:3]}"


def test_every_counted_text_has_its_languages_plural_forms(msgids):
    """A counted text (``nT``, ``n_``: ngettext) has as many forms as its language's rule, each with
    the English placeholders; the catalogs carry the rule in their Plural-Forms header."""
    from rigbuilder.domain.i18n import PLURAL_FORMS, plural_catalog

    counted = [m for m in msgids if isinstance(m, tuple)]
    assert len(counted) >= 10
    for lang in LANGS:
        forms = plural_catalog(lang)
        for singular, plural in counted:
            got = forms.get(singular)
            assert got and len(got) == PLURAL_FORMS[lang][0], (lang, singular, got)
            assert all(_fields(f) == _fields(plural) for f in got), (lang, singular, got)
        for po in (ROOT / "rigbuilder" / "locale" / lang / "LC_MESSAGES").glob("*.po"):
            n, rule = PLURAL_FORMS[lang]
            assert f"Plural-Forms: nplurals={n}; plural={rule};" in po.read_text(encoding="utf-8"), po


def test_a_counted_text_takes_the_form_of_its_count():
    from rigbuilder.domain.i18n import nT

    assert nT("{n} GPU", "{n} GPUs", 1) == "1 GPU" and nT("{n} GPU", "{n} GPUs", 3) == "3 GPUs"
    assert render(nT("{n} GPU", "{n} GPUs", 0), "en") == "0 GPUs"
    assert render(nT("{n} error", "{n} errors", 1), "de") == "1 Fehler"
    assert render(nT("{n} part will be imported.", "{n} parts will be imported.", 0), "fr").startswith("0 pièce ")  # French: 0 is singular
    assert render(nT("{n} part will be imported.", "{n} parts will be imported.", 2), "fr").startswith("2 pièces ")
    one, many = (render(nT("{n} warning", "{n} warnings", k), "ja") for k in (1, 5))
    assert one.replace("1", "5") == many  # Japanese: one form
    import pickle

    t = pickle.loads(pickle.dumps(nT("{n} GPU", "{n} GPUs", 2)))
    assert t == "2 GPUs" and t.plural == "{n} GPUs"


def test_catalogs_hold_no_stale_texts(msgids):
    from rigbuilder.domain.i18n import plural_catalog

    for lang in LANGS:
        ids = {m if isinstance(m, str) else m[0] for m in msgids}
        stale = (set(catalog(lang)) | set(plural_catalog(lang))) - ids
        assert not stale, f"{lang}: texts no longer in the code: {sorted(stale)[:5]} (run scripts/i18n.py extract)"


def _finding_calls():
    for path in sorted((ROOT / "rigbuilder" / "rules").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Finding":
                yield path.name, node


def test_no_finding_is_built_from_an_untranslatable_string():
    """A rule that writes Finding(..., f"...") or fix="..." would show English in every language."""
    seen = 0
    for name, call in _finding_calls():
        seen += 1
        texts = call.args[2:3] + [k.value for k in call.keywords if k.arg in ("message", "fix", "limits")]
        for t in texts:
            bad = [n for n in ast.walk(t) if isinstance(n, ast.JoinedStr)
                   or (isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value
                       and not _inside_t_call(t, n))]
            assert not bad, f"{name}:{call.lineno}: a finding text that is not a T(...)"
    assert seen >= 40


def _inside_t_call(root, target) -> bool:
    for n in ast.walk(root):
        if isinstance(n, ast.Call) and (getattr(n.func, "id", None) in ("T", "tr", "nT")
                                        or getattr(n.func, "attr", None) in ("join", "verbatim")):
            if any(x is target for x in ast.walk(n)):
                return True
    return False


def test_every_rule_code_is_documented_and_translated_findings_render(index):
    from tests.builds import frank_2070, x99_4x3090

    from rigbuilder.domain.build import Build, GpuPlacement, Settings

    builds = [frank_2070(4), x99_4x3090(None), x99_4x3090(280),
              Build(name="b", motherboard="mb-asrock-x99-ws-e", cpu="cpu-intel-xeon-e5-2697-v4",
                    psus=["psu-evga-supernova-1600-t2"],
                    gpus=[GpuPlacement("gpu-nvidia-rtx-3090-fe", p) for p in (1, 3, 5, 7)],
                    settings=Settings(region="US-15A", currency="USD", budget=1000)),
              Build(name="m", gpus=[GpuPlacement("gpu-nope", 1)])]
    codes = set()
    for b in builds:
        for f in run_checks(b, index):
            codes.add(f.code)
            assert f.code in RULE_CODES
            for text in (f.message, f.fix, f.limits):
                if not text:
                    continue
                assert isinstance(text, T), (f.code, text)
                for t in texts_of(text):
                    for lang in LANGS:
                        assert t.template in catalog(lang), (lang, t.template)
                for lang in LANGS:
                    out = render(text, lang)
                    assert out and out != str(text) and "{" not in out, (lang, f.code, out)
                assert render(text, "en") == str(text)
    assert len(codes) >= 10


def test_english_is_the_plain_text_and_figures_follow_the_locale():
    t = T("Peak load {load:.0f} W on the {names}.", load=1615.4, names="EVGA 1600")
    assert t == "Peak load 1615 W on the EVGA 1600." and render(t, "en") == str(t)
    de = render(T("Peak load {load:.0f} W is above the {rating:.0f} W rating of the {names}.",
                  load=1615.4, rating=1600, names="X"), "de")
    assert "1.615 W" in de and "1.600 W" in de and "Spitzenlast" in de
    assert render(T("{gpu} runs at x{width} Gen{gen} in {slot} ({gbps:.1f} GB/s); at least x8 is recommended for "
                    "multi-GPU training: {cost}.", gpu="GPU 1", width=4, gen=3, slot="S", gbps=3.94,
                    cost=T("Checks that need this part are skipped.")), "fr").count("3,9 Go/s") == 1
    money_de = render(T("Purchase (parts): {total}", total=Money(1234.5, "EUR")), "de")
    assert money_de == "Kauf (Teile): 1.234,50\xa0€"
    assert render(T("Purchase (parts): {total}", total=Money(1234.5, "EUR")), "en") == "Purchase (parts): 1,234.50 EUR"
    joined = T("Choose a case.") + T(" Other devices on the same circuit are not counted.")
    assert joined == "Choose a case. Other devices on the same circuit are not counted."
    assert render(joined, "de") == "Wählen Sie ein Gehäuse. Andere Geräte am selben Stromkreis werden nicht mitgezählt."


def test_an_unknown_text_or_language_falls_back_to_english():
    t = T("A text nobody translated, {n} times.", n=3)
    assert render(t, "de") == "A text nobody translated, 3 times."
    assert choose_language("xx") == "en" and choose_language("klingon_KL") == "en"


@pytest.mark.parametrize("env, expected", [
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),
    ({"LC_MESSAGES": "ja_JP.UTF-8", "LANG": "C.UTF-8"}, "ja"), ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
    ({"LANG": "zh_TW.UTF-8"}, "en"), ({"LANG": "C"}, "en"), ({}, "en"), ({"LANG": "pt_BR.UTF-8"}, "en"),
    ({"LANGUAGE": "pt:fr", "LANG": "de_DE.UTF-8"}, "fr"),
])
def test_language_follows_the_system_locale(env, expected):
    assert i18n.system_language(env) == expected
    assert choose_language(None, "system", env) == expected
    assert choose_language("de", "ja", env) == "de" and choose_language(None, "ja", env) == "ja"


def test_texts_survive_copy_and_pickle():
    import copy
    import pickle

    t = T("GPU {num}", num=2) + T(" Other devices on the same circuit are not counted.")
    for c in (copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
        assert c == t and render(c, "de") == render(t, "de")


def test_rule_code_help_is_translated():
    for lang in LANGS:
        missing = [c for c, text in RULE_CODES.items() if not catalog(lang).get(text)]
        assert not missing, (lang, missing)


def test_the_package_builds_compiled_catalogs_that_read_the_same_as_the_sources(tmp_path, monkeypatch):
    sources = {lang: dict(catalog(lang)) for lang in LANGS}
    counted = {lang: dict(i18n.plural_catalog(lang)) for lang in LANGS}
    assert _script().compile_to(tmp_path) >= len(LANGS)
    assert not list(tmp_path.rglob("*.po"))
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    catalog.cache_clear()
    try:
        for lang in LANGS:
            assert dict(catalog(lang)) == sources[lang], lang
            assert dict(i18n.plural_catalog(lang)) == counted[lang] and counted[lang], lang  # every form of each
    finally:
        catalog.cache_clear()


def test_dates_follow_the_locale_and_english_keeps_iso():
    from rigbuilder.domain.i18n import Day

    text = T("rates of {date}", date=Day("2025-02-25"))
    assert str(text) == "rates of 2025-02-25" and render(text, "en") == "rates of 2025-02-25"
    assert "25.02.2025" in render(text, "de")
    assert "2025/02/25" in render(text, "ja")
    assert "févr. 2025" in render(text, "fr")
    assert "2025年2月25日" in render(text, "zh_CN")
    assert render(T("rates of {date}", date=Day("2025-02")), "de").endswith("2025-02")  # a partial date as it is


# A word with its plural ending in brackets: "GPU(s)" in English, "Karte(n)", "Teil(e)" in German,
# "carte(s)", "ajoutée(s)", "journal(aux)" in French. Counted texts take ngettext forms instead (nT, n_, ntr).
BRACKETED_PLURAL = {
    "en": re.compile(r"[^\W\d_]\((?:s|es)\)"),
    "de": re.compile(r"[^\W\d_]\((?:s|e|n|en|er|r|nen|innen)\)"),
    "fr": re.compile(r"[^\W\d_]\((?:s|e|es|x|aux)\)"),
}
NOT_A_PLURAL = ("http(s)", "Which GPU(s) to Get")  # a protocol; a publication's title, cited as written


def _bracketed(text: str, lang: str) -> list[str]:
    for keep in NOT_A_PLURAL:
        text = text.replace(keep, "")
    pats = {BRACKETED_PLURAL["en"], BRACKETED_PLURAL.get(lang, BRACKETED_PLURAL["en"])}
    return [text[max(0, m.start() - 30):m.end()] for p in pats for m in p.finditer(text)]


def test_the_bracket_pattern_catches_what_it_must():
    assert _bracketed("3 GPU(s) now", "en") and _bracketed("{n} Karte(n)", "de") and _bracketed("ein(e) {kind}", "de")
    assert _bracketed("{n} pièce(s) absente(s)", "fr") and _bracketed("{n} journal(aux)", "fr")
    assert not _bracketed("Radeon (s) GPU (e.g. RTX) from an http(s) address", "de")


def test_no_shipped_text_writes_a_plural_in_brackets(msgids):
    """Every counted text is an ngettext pair (issue 36): no "(s)" in a marked English text (singular
    or plural), nor in any other string constant of the package, nor "(e)", "(n)" in German or
    "(s)", "(e)" in French translations."""
    english = [t for m in msgids for t in ((m,) if isinstance(m, str) else m)]
    assert [b for t in english for b in _bracketed(t, "en")] == []
    unmarked = []
    for path in sorted((ROOT / "rigbuilder").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and not node.value.startswith("\n"):
                unmarked += [f"{path.name}:{node.lineno}: {b}" for b in _bracketed(node.value, "en")
                             if len(node.value) < 400]  # (docstrings explain code, they are not shown)
    assert unmarked == []
    from babel.messages.pofile import read_po

    for lang in LANGS:
        bad = []
        for po in sorted((ROOT / "rigbuilder" / "locale" / lang / "LC_MESSAGES").glob("*.po")):
            with po.open("rb") as fh:
                for m in read_po(fh, locale=lang):
                    for s in (m.string if isinstance(m.string, tuple) else (m.string,)):
                        bad += [f"{po.name}: {b}" for b in _bracketed(s or "", lang)]
        assert bad == [], f"{lang}: {bad[:5]}"
