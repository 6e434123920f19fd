"""Every command's output in each language (issue 19): power, arrange, price, advise and the
report speak de, fr, ja and zh_CN; under the pseudo-language every text a command prints came
from the catalogs (data, such as part names, excepted)."""
from __future__ import annotations

import html
import re

import pytest

from rigbuilder.cli import main, make_parser
from rigbuilder.commands.common import UsageError
from rigbuilder.domain.i18n import PSEUDO, render
from tests.cli_lang import GPU, run, write_rig
from tests.pseudo import bare


@pytest.fixture
def rig(tmp_path):
    return write_rig(tmp_path)


# language -> command -> words its output must hold
WORDS = {
    "de": {"power": ["Komponente", "DC-Last", "an der Steckdose", "Netzteillast", "GPU-Spitzen", "1.608,0", "90,0\xa0%~"],
           "arrange": ["Position 1", "Riser, nicht eingesteckt", "FEHLER"],
           "price": ["der Preis für ein neues Teil", "1.499,00\xa0$"],
           "advise": ["Speicher auf einer Karte", "Gewichte", "Karte", "Grundlage", "gemessen:"],
           "report": ["## Kennzahlen", "## Befunde: 5 Fehler", "## Quellen", "Spitzenlast (DC)|1.615 W",
                      "**Summe (Kauf)**", "mindestens 3.515,99\xa0$", "Erstellt mit rigbuilder", "Mainboard"]},
    "fr": {"power": ["composant", "charge CC", "à la prise", "Pics des GPU"],
           "arrange": ["position 1", "riser, non branché", "ERREUR"],
           "price": ["le prix retenu pour une pièce neuve", "1\u202f499,00\xa0$US"],
           "advise": ["Mémoire sur une carte : 43,5 GB", "poids", "carte", "base", "mesuré :"],
           "report": ["## Chiffres clés", "## Constats : 5 erreurs", "## Sources", "Charge de pointe (CC)|1\u202f615 W",
                      "**Total (achat)**", "au moins 3\u202f515,99\xa0$US", "Réalisé avec rigbuilder", "Carte mère"]},
    "ja": {"power": ["コンポーネント", "DC 負荷", "コンセント", "電源負荷"],
           "arrange": ["位置 1", "ライザー、未接続", "エラー"],
           "price": ["新しい部品に使う価格", "$1,499.00"],
           "advise": ["1 枚あたりのメモリ", "重み", "カード", "根拠", "実測:"],
           "report": ["## 主要な数値", "## 指摘: エラー 5 件", "## 出典", "ピーク負荷(DC)|1,615 W",
                      "**合計(購入)**", "少なくとも $3,515.99", "rigbuilder 0", "マザーボード"]},
    "zh_CN": {"power": ["组件", "直流负载", "插座处", "电源负载"],
              "arrange": ["位置 1", "延长线,未插入", "错误"],
              "price": ["新部件所用的价格", "US$1,499.00"],
              "advise": ["单卡显存", "权重", "显卡", "依据", "实测:"],
              "report": ["## 关键数据", "## 检查结果:5 个错误", "## 来源", "峰值负载(直流)|1,615 W",
                         "**合计(购买)**", "至少 US$3,515.99", "由 rigbuilder", "主板"]},
}
ENGLISH = {"power": ["component", "DC load", "GPU spikes"], "arrange": ["not plugged in"],
           "price": ["the price used for a new part"], "advise": ["Memory on one card", "weights"],
           "report": ["## Key figures", "## Power and running cost", "Total (purchase)", "Made with"]}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_more_commands_in_each_language(rig, capsys, lang):
    outs = {
        "power": run(capsys, "power", str(rig), "--lang", lang),
        "arrange": run(capsys, "arrange", str(rig), "--lang", lang),
        "price": run(capsys, "price", "list", GPU, "--lang", lang),
        "advise": run(capsys, "advise", "gpus", "--workload", "qlora", "--params", "70B", "--limit", "3",
                      "--lang", lang),
        "report": run(capsys, "report", str(rig), "--format", "md", "-o", "-", "--lang", lang),
    }
    for cmd, (rc, out, err) in outs.items():
        assert rc in (0, 1) and not err.strip(), (cmd, rc, err)
        for w in WORDS[lang][cmd]:
            assert w in out, (lang, cmd, w, out[:3000])
        for w in ENGLISH[cmd]:
            assert w not in out, (lang, cmd, w)


def test_errors_speak_the_language(rig, capsys, tmp_path):
    rc, _, err = run(capsys, "power", str(tmp_path / "missing.rig"), "--lang", "de")
    assert rc == 2 and err.startswith("rigbuilder: ")
    rc, _, err = run(capsys, "report", str(rig), "-o", str(tmp_path / "x.weird"), "--lang", "de")
    assert rc == 2 and "das Format lässt sich an der Endung .weird nicht erkennen" in err
    rc, _, err = run(capsys, "cost", str(rig), "--years", "abc", "--lang", "ja")
    assert rc == 2 and "--years abc: 数値を指定してください" in err
    rc, _, err = run(capsys, "new", "--gpu", "bad id!", "-o", str(tmp_path / "n.rig"), "--lang", "zh_CN")
    assert rc == 2 and "应为 ID" in err
    bad = tmp_path / "bad.rig"
    bad.write_text('{"format": "rigbuilder-build", "format_version": 1, "name": 5}', encoding="utf-8")
    rc, _, err = run(capsys, "check", str(bad), "--lang", "de")
    assert rc == 2 and "'name' muss Text sein, nicht int" in err
    rc, _, err = run(capsys, "check", str(bad), "--lang", "ja")
    assert rc == 2 and "'name' は int ではなくテキストである必要があります" in err
    lst = tmp_path / "list.txt"
    lst.write_text("hello\n", encoding="utf-8")
    rc, _, err = run(capsys, "import-list", str(lst), "--lang", "fr")
    assert rc == 2 and "pas une liste de pièces PCPartPicker" in err
    rc, _, err = run(capsys, "cost", str(rig), "--years", "abc")  # English as it was
    assert rc == 2 and err.strip() == "rigbuilder: --years abc: expected a number"


def test_report_csv_header_follows_the_language_and_english_keeps_its_column_ids(rig, capsys, tmp_path):
    run(capsys, "report", str(rig), "-o", str(tmp_path / "en.csv"))
    run(capsys, "report", str(rig), "-o", str(tmp_path / "ja.csv"), "--lang", "ja")
    en = (tmp_path / "en.csv").read_text(encoding="utf-8").splitlines()[0]
    ja = (tmp_path / "ja.csv").read_text(encoding="utf-8").splitlines()
    assert en.startswith("type,quantity,item,id,placement")
    assert ja[0].startswith("種類,数量,品目,ID,配置") and any(line.startswith("合計,") for line in ja)


# --------------------------------------------------------------------------- pseudo-language



def _pseudo(capsys, argv: list[str]) -> str:
    """Run one command with its output in the pseudo-language (a bad-input message included)."""
    args = make_parser().parse_args(argv)
    args.lang = PSEUDO
    try:
        args.func(args)
    except UsageError as e:
        print(render(e.args[0], PSEUDO))
    out, err = capsys.readouterr()
    return out + err


def _data(index, rig_path) -> list[str]:
    """Texts that are data, not the program's words: part names and ids, the build's name and
    path, and texts the core models write (their owners put those through the catalogs)."""
    from rigbuilder.files.buildfile import load
    from rigbuilder.models import vram
    from rigbuilder.models.workloads import workload
    from rigbuilder.rules.arrange import arrange
    from rigbuilder.rules.context import Context

    b = load(rig_path)
    ctx = Context(b, index)
    wl = workload("qlora", 70e9)
    core = [c.label for c in ctx.power.components] + list(arrange(b, index).advice)
    core += [wl.label, wl.model.label, wl.unit] + list(vram.need(wl).notes)
    from rigbuilder.models.prices import observations

    core += [o.describe() for o in observations(GPU, index)]
    core += [x for o in observations(GPU, index) for x in (o.source, o.note, o.origin_label) if x]
    from rigbuilder.rules.context import Context as _C
    from rigbuilder.rules.engine import RULE_CODES
    from rigbuilder.rules.power import advise_power_limit

    core += list(RULE_CODES) + advise_power_limit(_C(b, index)).commands()
    from rigbuilder.domain import gpu_commands
    from rigbuilder.rules.power import plan_limits

    apply = plan_limits(b, index).to_apply  # the commands, the systemd unit and the cron line: files, not texts
    core += gpu_commands.set_limits(apply) + gpu_commands.systemd_unit(apply).splitlines()
    core += [gpu_commands.cron_line(apply), gpu_commands.UNIT_PATH, gpu_commands.UNIT_NAME]
    core += [index.get(pid).source for pid in b.part_ids() if index.get(pid) is not None]
    from rigbuilder.models.cost import purchase

    core += [pp.priced.trace() for pp in purchase(b, index).parts if pp.priced]
    core += ["80 PLUS Titanium", "PCIe 8-pin"]  # data: a certification's and a connector's names
    names = [p.name for p in index] + [p.id for p in index]
    wanted = {s for s in names if s} | {b.name, str(rig_path), "rigbuilder"}
    from rigbuilder.files.report import md_escape

    wanted |= {c for c in core if c}
    return sorted(wanted | {md_escape(w) for w in wanted}, key=len, reverse=True)


def _strip(text: str, data: list[str]) -> str:
    for d in data:
        if d in text:
            text = text.replace(d, " ")
    return text


def test_every_text_a_command_prints_comes_from_the_catalogs(rig, capsys, index, tmp_path):
    from rigbuilder.models import adviser
    from rigbuilder.models.workloads import workload

    data = _data(index, rig)
    was, index.used_estimates = index.used_estimates, True  # as the command line has it by default
    try:
        recs = adviser.rank(index, workload("qlora", 70e9), limit=3, currency="EUR")
    finally:
        index.used_estimates = was
    data += sorted({x for r in recs for x in (r.caveat, r.strategy, r.throughput.describe(), r.gpu.name[:48]) if x},
                   key=len, reverse=True)  # the table cuts a card's name at 48 characters
    from pathlib import Path

    from rigbuilder.catalog.match import Matcher
    from rigbuilder.files.listimport import plan
    from rigbuilder.files.pcpp import parse

    pcpp = Path(__file__).parent / "files" / "data" / "pcpp" / "au-reddit-post.md"
    p = plan(parse(pcpp.read_bytes(), str(pcpp)), Matcher(index))
    data += sorted({c.note for x in p.lines for c in x.match.candidates if c.note}, key=len, reverse=True)
    data.append("--pick")  # an option: the command line keeps its English names
    out_rig = str(tmp_path / "new.rig")
    commands = [
        ["power", str(rig)], ["cost", str(rig)], ["check", str(rig)], ["limits", str(rig)], ["arrange", str(rig)],
        ["price", "list", GPU], ["price", "list"],
        ["advise", "gpus", "--workload", "qlora", "--params", "70B", "--limit", "3"],
        ["report", str(rig), "--format", "md", "-o", "-"], ["report", str(rig), "--format", "txt", "-o", "-"],
        ["report", str(rig), "--format", "html", "--no-board", "-o", "-"],
        ["new", "--board", "mb-asrock-x99-ws-e", "--gpu", f"{GPU}@1", "-o", out_rig],
        ["catalog", "list", "psu", "--search", "corsair"], ["import-list", str(pcpp)],
        ["edit", str(rig), "--move-gpu", "4@riser", "-o", out_rig],
        ["price", "set", GPU, "650", "USD", "--used", "--source", "shop", "--date", "2025-01-01"],
        ["price", "export", str(tmp_path / "p.csv")], ["price", "remove", GPU],
        # bad input: each message says what and where, in the catalogs too
        ["cost", str(rig), "--years", "abc"], ["new", "--gpu", "bad id!", "-o", out_rig],
        ["report", str(rig), "-o", str(tmp_path / "x.weird")], ["price", "list", "no-such-part"],
        ["catalog", "list", "--kind", "spaceship"], ["advise", "gpus", "--workload", "nope"],
    ]
    leaks = {}
    for argv in commands:
        out = _pseudo(capsys, argv)
        assert "\u27e6" in out, (argv, out[:500])
        if argv[0] == "report" and "html" not in argv:
            # the report's findings: each check's text renders through the catalogs (tested with the rules)
            out = "\n".join(line for line in out.splitlines() if not line.startswith(("- **", "  \u27e6ERROR")))
        out = html.unescape(re.sub(r"<style>.*?</style>", " ", out, flags=re.S))  # the HTML report: no CSS, no &#x27;
        rest = bare(_strip(out, data))
        if rest:
            leaks[" ".join(argv[:2])] = rest
    assert not leaks, "\n".join(f"{k}: {v}" for k, v in leaks.items())


# --------------------------------------------------------------------------- PDF fonts

def test_the_report_puts_the_languages_cjk_face_first():
    from rigbuilder.files.report import css

    assert "'Noto Sans CJK SC', 'DejaVu Sans'" in css("zh_CN") and "CJK JP" not in css("zh_CN")
    assert "'Noto Sans CJK JP', 'DejaVu Sans'" in css("ja") and "CJK SC" not in css("ja")
    assert "CJK" not in css("de") and "CJK" not in css("en")


@pytest.mark.parametrize("lang, face, other", [("zh_CN", b"NotoSansCJKsc", b"NotoSansCJKjp"),
                                               ("ja", b"NotoSansCJKjp", b"NotoSansCJKsc")])
def test_a_chinese_pdf_embeds_the_simplified_chinese_face_and_a_japanese_one_the_japanese(
        rig, capsys, tmp_path, lang, face, other):
    import shutil
    import subprocess

    fc = shutil.which("fc-list") and subprocess.run(["fc-list", ":lang=zh-cn", "family"], capture_output=True,
                                                    text=True).stdout
    if not fc or "Noto Sans CJK SC" not in fc:
        pytest.skip("fonts-noto-cjk is not installed")
    pdf = tmp_path / f"r-{lang}.pdf"
    rc, _, err = run(capsys, "report", str(rig), "--no-board", "-o", str(pdf), "--lang", lang)
    assert rc == 0, err
    fonts = set(re.findall(rb"/BaseFont\s*/([A-Za-z0-9+-]+)", pdf.read_bytes()))
    assert any(face in f for f in fonts), fonts
    assert not any(other in f for f in fonts), fonts


def test_help_in_the_language(capsys):
    with pytest.raises(SystemExit):
        main(["--lang", "de", "--help"])
    de = capsys.readouterr().out
    assert "die Teileliste einer Konfiguration schreiben" in de and "write the parts list" not in de
    with pytest.raises(SystemExit):
        main(["cost", "--help", "--lang", "zh_CN"])
    zh = capsys.readouterr().out
    assert "总拥有成本的年数(默认 3)" in zh and "years for the cost" not in zh
    with pytest.raises(SystemExit):
        main(["cost", "--help", "--lang", "en"])
    assert "years for the cost of ownership (default 3)" in capsys.readouterr().out
