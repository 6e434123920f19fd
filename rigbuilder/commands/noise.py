"""``rigbuilder noise BUILD``: how loud the build is, each source at idle, training and peak."""
from __future__ import annotations

import argparse
import textwrap

from rigbuilder.commands.common import add_json_flag, load_build, open_catalog, print_json, require_parts
from rigbuilder.commands.power import _pad
from rigbuilder.domain.build import shown_name
from rigbuilder.domain.i18n import N_, format_number, render, tr

STATES = ("idle", "training", "peak")
_IN_F_STRINGS = (N_("source"), N_("idle"), N_("training"), N_("peak"), N_("whole build"), N_("silent"))


def register(sub) -> None:
    p = sub.add_parser("noise", help=N_("how loud the build is at 1 m: each fan source at idle, training and peak, "
                                        "from measured figures where published"))
    p.add_argument("file")
    add_json_flag(p)
    p.set_defaults(func=cmd_noise)


def _fig(f) -> dict:
    return {"db": None if f.db is None else round(f.db, 1), "band_db": round(f.band, 1), "measured": f.measured,
            "source": f.source}


def noise_json(ctx, cat=None) -> dict:
    rep = ctx.noise
    loud = {s: (rep.loudest(s).label if rep.loudest(s) else None) for s in STATES}
    return {
        "build": ctx.build.name,
        "catalog_version": cat.version if cat is not None else None,
        "distance_m": rep.distance_m,
        "room_db": ctx.build.settings.room_noise_db,
        "sources": [{"label": s.label, "kind": s.kind, "part": s.part, "gpu": s.gpu,
                     **{s_: _fig(s.figures[s_]) for s_ in STATES}} for s in rep.sources],
        "total": {s: _fig(rep.total[s]) for s in STATES},
        "loudest": loud,
        "measured_share": {s: round(rep.measured_share(s), 3) for s in STATES},
        "missing_parts": list(ctx.missing),
    }


def cmd_noise(args: argparse.Namespace) -> int:
    from rigbuilder.rules.context import Context

    cat = open_catalog()
    b = load_build(args.file)
    require_parts(b, cat.index, args.file)
    ctx = Context(b, cat.index)
    d = noise_json(ctx, cat)
    if args.json:
        print_json(d)
        return 0
    lang = getattr(args, "lang", "en")
    print(tr("{name}: noise at {m:g} m, dB(A)", lang, name=shown_name(b.name, lang), m=d["distance_m"]))

    def cell(f, width: int) -> str:
        if f["db"] is None:
            return _pad(tr("silent", lang), width, True)
        text = (f"{f['db']:.0f}" if lang == "en" else format_number(f["db"], 0, lang)) + ("" if f["measured"] else "*")
        return _pad(text, width, True)

    print(f"{_pad(tr('source', lang), 52)} {_pad(tr('idle', lang), 8, True)} {_pad(tr('training', lang), 10, True)} "
          f"{_pad(tr('peak', lang), 8, True)}")
    for s in d["sources"]:
        lines = textwrap.wrap(render(s["label"], lang), 52, subsequent_indent="  ", break_on_hyphens=False) or [""]
        print(f"{_pad(lines[0], 52)} {cell(s['idle'], 8)} {cell(s['training'], 10)} {cell(s['peak'], 8)}")
        for more in lines[1:]:
            print(more)
        src = render(s["training"]["source"], lang)
        for line in textwrap.wrap(src, 76, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False):
            print(line)
    t = d["total"]
    print(f"{_pad(tr('whole build', lang), 52)} {cell(t['idle'], 8)} {cell(t['training'], 10)} {cell(t['peak'], 8)}")
    if t["training"]["db"] is not None:
        print(tr("While training: about {db:.0f} dB(A) ± {band:.0f} dB; {share:.0%} of it from measured figures; "
                 "loudest: {source}.", lang, db=t["training"]["db"], band=t["training"]["band_db"],
                 share=d["measured_share"]["training"], source=render(d["loudest"]["training"] or "", lang)))
        if t["training"]["db"] > d["room_db"]:
            print(tr("Louder than the {room:.0f} dB(A) set for the build's room (finding noise.loud).", lang,
                     room=d["room_db"]))
    print(tr("* estimate from the part's class (a model, not a measurement of this part)", lang))
    return 0
