"""Print docs/models.md's fidelity tables (Markdown) from ``rigbuilder.models.fidelity``.

Run: .venv/bin/python benchmarks/fidelity.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def memory_table() -> list[str]:
    from rigbuilder.models import fidelity as F

    out = ["| source | setup | published | app (GB per card / card GB) | verdict |", "|---|---|---|---|---|"]
    for r in F.memory_rows():
        c = r.case
        setup = f"{c.model} {c.precision}, {c.context:,} tokens, {c.n}x {c.card} {c.vram_gib:g} GB"
        verdict = ("right" if r.agrees else "**wrong**") + f" ({r.margin:+.1%} of the card)"
        out.append(f"| Dai | {setup} | {'runs' if c.fits else 'does not fit'}: {c.published} | "
                   f"{r.need_gb:.2f} / {r.card_gb:.2f}: {'fits' if r.app_fits else 'does not fit'} | {verdict} |")
    return out


def weight_table() -> list[str]:
    from rigbuilder.models import fidelity as F

    out = ["| source | model and format | published GiB | app GiB | error |", "|---|---|---:|---:|---:|"]
    for c, gib, e in F.weight_rows():
        src = "dranger003" if "dranger" in c.source else "Dai"
        out.append(f"| {src} | {c.model} {c.precision} | {c.gib:.2f} | {gib:.2f} | {e:+.1%} |")
    return out


def scaling_table() -> list[str]:
    from rigbuilder.models import fidelity as F

    out = ["| source | setup | workload | published | app | error | fitted |", "|---|---|---|---:|---:|---:|---|"]
    for r in F.scaling_rows():
        fmt = "{:.3f}" if r.source == "Lambda" else "{:.2f}"
        fitted = "held out" if r.held_out else "fitted"
        if r.source == "Dai":
            fitted = "leave-one-out"
        out.append(f"| {r.source} | {r.setup} | {r.workload} | {fmt.format(r.published)} | {fmt.format(r.app)} | "
                   f"{r.error:+.1%} | {fitted} |")
    return out


def engine_tables() -> list[str]:
    """Every engine's held-out token rates against the model (the printed band is their 80th percentile)."""
    from rigbuilder.models import throughput as T

    out = []
    for engine in ("llama.cpp", "exllamav2", "vllm"):
        b = T.engine_band(engine)
        out.append(f"{engine}: band {b.band:.1%}, {b.inside} of {b.n} held-out cases inside, mean {b.mean_abs:.1%}")
        out += ["| source | setup | published | app | error | in band |", "|---|---|---:|---:|---:|---|"]
        for w, v, p, src in b.per_point:
            if src == T.DAI:
                continue
            e = p / v - 1
            out.append(f"| {src.split(',')[0]} | {w} | {v:.2f} | {p:.2f} | {e:+.1%} | "
                       f"{'yes' if abs(e) <= b.band + 1e-12 else 'no'} |")
        out.append("")
    return out


def serving_table() -> list[str]:
    from rigbuilder.models import fidelity as F

    out = ["| source | setup | published | app (GB / 90% of the card) | verdict |", "|---|---|---|---|---|"]
    for r in F.serving_rows():
        c = r.case
        out.append(f"| {c.source.split(',')[0]} | {c.model} {c.precision}, {c.context:,} tokens, {c.card} | "
                   f"{c.published} | {r.need_gb:.2f} / {r.budget_gb:.2f}: {'fits' if r.app_fits else 'does not fit'} | "
                   f"{'right' if r.agrees else '**wrong**'} |")
    return out


def main() -> None:
    for t in (memory_table(), weight_table(), scaling_table(), engine_tables(), serving_table()):
        print("\n".join(t))
        print()
    from rigbuilder.models import fidelity as F
    from rigbuilder.models import scaling as S
    from rigbuilder.models import throughput as T

    print(F.summary())
    print(S.link_fit())
    print(T.decode_fit(), T.decode_loo().mean_abs, T.decode_loo().max_abs, T.decode_loo().bias)
    for k in T.BENCHMARKS:
        b = T.benchmark_loo(k)
        print(k, f"{b.raw_mean_abs:.1%} {b.mean_abs:.1%} {b.max_abs:.1%} bias {b.bias:.4f}",
              f"printed band {T.training_band(k):.1%}")
        for card, pub, est, err in T.training_held_out(k):
            print(f"  held out: {card}: {pub:g} published, {est:.1f} estimated ({err:+.1%})")
    for model, gb, need, err, _src, basis in F.qlora_size_rows():
        unit = "GB" if basis == F.BASIS_CARD else "GiB reserved by PyTorch"
        print(f"QLoRA {model}: {gb:g} {unit} published, {need:.2f} ({err:+.1%}; as GB of the card: "
              f"{F.qlora_size_plain_error(model, gb):+.1%})")


if __name__ == "__main__":
    main()
