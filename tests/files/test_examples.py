"""The shipped example builds (issue 43): one per question, real catalog parts, no errors, in the wheel."""
from __future__ import annotations

from rigbuilder.domain.findings import Severity
from rigbuilder.domain.i18n import T, render
from rigbuilder.files import buildfile, clusterfile
from rigbuilder.files.examples import EXAMPLES, NODE_FILE, example_builds, examples_dir, paths
from rigbuilder.rules.cluster import ClusterContext, check_cluster
from rigbuilder.rules.engine import run_checks


def test_every_example_is_a_checked_build_of_catalog_parts(index):
    assert [e.kind for e in EXAMPLES] == ["build", "build", "compare", "cluster"]
    shipped = {p.name for p in examples_dir().iterdir()}
    assert shipped == {f for e in EXAMPLES for f in e.files} | {NODE_FILE}
    for e in EXAMPLES:
        for p in paths(e):
            if p.suffix == ".rig":
                b = buildfile.load(p)
                assert "Question: " in b.notes
                fs = run_checks(b, index)
                assert not [f for f in fs if f.severity is Severity.ERROR], (p.name, fs)
                assert all(index.get(pid) is not None for pid in b.part_ids()), p.name
            else:
                plan = clusterfile.load(p)
                ms = clusterfile.load_machines(plan, p)
                cc = ClusterContext(plan, [(m.label, m.build, m.machine.nics, m.machine.name) for m in ms], index)
                assert len(cc.machines) == 2
                assert not [f for f in check_cluster(cc) if f.severity is Severity.ERROR]
                assert cc.scaling.points[-1].speedup > 1.0


def test_the_questions_are_translated():
    for e in EXAMPLES:
        for lang in ("de", "fr", "ja", "zh_CN"):
            assert render(T(e.question), lang) != e.question, (lang, e.question)
            assert all(render(T(x), lang) != x for x in e.labels), (lang, e.labels)
    assert len(example_builds()) == 4


def test_the_cluster_example_checked_in_chinese_has_no_english_reason(capsys):
    """The GPUDirect RDMA reason was joined as plain text and printed in English in every language."""
    from rigbuilder.cli import main

    path = examples_dir() / "two-machine-cluster.rigcluster"
    assert main(["--lang", "zh_CN", "cluster", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "原因" in out and "is a consumer card" not in out and "NVIDIA documents" not in out
