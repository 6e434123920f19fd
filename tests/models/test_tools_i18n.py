"""The adviser's and the optimiser's texts (issue 19) are made in English by the Qt-free core and
rendered in the reader's language by every door: German and Japanese here, with the figures
formatted for the locale, and the English value unchanged."""
from __future__ import annotations

from rigbuilder.domain.i18n import T, render, texts_of
from rigbuilder.models import scaling as S
from rigbuilder.models import throughput as TP
from rigbuilder.models import vram as V
from rigbuilder.models.adviser import layout_caveat
from rigbuilder.models.workloads import WORKLOADS, workload
from rigbuilder.rules.optimise import Request, optimise
from tests.builds import frank_2070
from tests.rules.optimise_helpers import StandIn


def test_workload_names_and_scaling_reasons_render_in_german_and_japanese(index):
    wl = workload("cnn-training")
    assert render(wl.label, "de") == "CNN-Training (ResNet-50, fp16 gemischte Genauigkeit)"
    assert "学習" in render(wl.label, "ja")
    assert wl.label == "CNN training (ResNet-50, fp16 mixed precision)"  # English as it always was
    for w in WORKLOADS.values():
        assert render(w.label, "de") != w.label, w.id
    link = S.CardLink(2, 4, 3, "chipset", False, "PCIE4")
    assert link.describe() == "x4 Gen3 through the chipset, no P2P"
    assert render(link.describe(), "de") == "x4 Gen3 über den Chipsatz, kein P2P"
    assert "チップセット" in render(link.describe(), "ja")
    _, why = S.explain(workload("bert-training"), 2, [S.CardLink(1, 16, 3), link], rate=52)
    assert str(why[0]).startswith("GPU 2: x4 Gen3 through the chipset, no P2P: ")
    de = [render(w, "de") for w in why]
    assert de[0].startswith("GPU 2: x4 Gen3 über den Chipsatz, kein P2P: 0,")
    assert "Chipsatz-x4-Steckplatz (PCIE4)" in de[1] and "club-3090" in de[1]  # the citation stays
    bt = S.build_throughput(frank_2070(2), index, workload("bert-training"))
    assert bt.reasons and all(isinstance(r, T) for r in bt.reasons)
    assert "Busbandbreite" in render(bt.reasons[0], "de")


def test_throughput_notes_and_vram_sources_render(index):
    g = next(p for p in index.of_kind("gpu") if p.chip_model == "GeForce RTX 3090")
    t = TP.estimate(g, workload("lora"))
    assert t.describe().startswith("scaled from a measurement")
    assert render(t.describe(), "de").startswith("von einer Messung übertragen")
    assert render(t.describe(), "ja").startswith("実測値から換算")
    assert "Dettmers et al." in render(V.SOURCES[0], "ja") and "二重量子化" in render(V.SOURCES[0], "ja")
    for text in (T("unverified: {fields}", fields="slot width"), layout_caveat(g) or T("unverified: {fields}", fields="x")):
        assert render(text, "de").startswith(("ungeprüft", "unbestätigt"))


def test_optimiser_explanation_and_infeasible_reason_render(index):
    res = optimise(Request(budget=3000.0, currency="EUR", condition="both", gpus_now=1, grow_to=2, objective="per-cost"),
                   index, StandIn())
    assert res.best is not None
    i = next(k for k, line in enumerate(res.explanation) if line.startswith("Best throughput"))
    de = [render(line, "de") for line in res.explanation]
    assert de[i].startswith("Bester Durchsatz je Gesamtkosten:") and "€" in de[i]
    assert "Jahre" in de[i] and "je 1.000 EUR" in de[i]
    ja = [render(line, "ja") for line in res.explanation]
    assert ja[i].startswith("総費用あたりの最高スループット")
    # the prices' age comes first (stale prices say so before anything else)
    assert any(line.startswith("Price age:") for line in res.explanation[:i])
    assert any(line.startswith("Preisalter:") for line in de[:i])
    assert all(render(line, "en") == line for line in res.explanation)
    # every template inside the explanation is in the catalogs
    from rigbuilder.domain.i18n import catalog

    missing = [t.template for line in res.explanation for t in texts_of(line) if t.template not in catalog("de")]
    assert not missing
    bad = optimise(Request(budget=300.0, currency="EUR", gpus_now=1, grow_to=4), index, StandIn())
    assert bad.infeasible.startswith("budget:")
    assert render(bad.infeasible, "de").startswith("Budget: kein Build")
    assert render(bad.infeasible, "zh_CN").startswith("预算：")
    problems = Request(gpus_now=9).problems()
    assert render(problems[0], "fr").startswith("GPU maintenant\u00a0: 9")


def test_errors_about_a_request_render_for_the_doors():
    import pytest

    with pytest.raises(ValueError) as e:
        workload("llm-inference", context=0)
    assert str(e.value) == "context must be a whole number from 1 to 1048576, not 0"  # English as before
    assert render(e.value.args[0], "de") == "context muss eine ganze Zahl von 1 bis 1.048.576 sein, nicht 0"
    with pytest.raises(ValueError) as e:
        workload("nope")
    assert render(e.value.args[0], "ja").startswith("不明なワークロード 'nope'")
