"""noise.*: a build louder than the room it stands in."""
from __future__ import annotations

from typing import Iterator

from rigbuilder.domain.findings import Finding, Severity
from rigbuilder.domain.i18n import T
from rigbuilder.rules.context import Context

LIMITS = T("Levels at 1 m from the machine, from published measurements where the part has one and "
           "from its class otherwise; a room's echo, the case's damping and the workload's own fan curve "
           "are not modelled.")


def check_noise(ctx: Context) -> Iterator[Finding]:
    """noise.loud (info): the build's level at training above the room level the build sets."""
    rep = ctx.noise
    room = ctx.build.settings.room_noise_db
    fig = rep.total["training"]
    if fig.db is None or fig.db <= room:
        return
    loud = rep.loudest("training")
    gpus = tuple(s.gpu for s in rep.sources if s.gpu is not None and s.figures["training"].db is not None)
    fix = (T("Open-air cards or a power limit lower it (the fan law: a limit of 80% is about 5 dB "
             "quieter); a blower card is about 7 dB louder than an open-air card of the same power. "
             "Or raise the room level in the build's settings if the machine stands elsewhere.")
           if any(s.kind == "gpu" for s in rep.sources) else
           T("Quieter fans lower it, or raise the room level in the build's settings if the machine stands elsewhere."))
    yield Finding("noise.loud", Severity.INFO,
                  T("The build is about {db:.0f} dB(A) at 1 m while training (± {band:.0f} dB), above the "
                    "{room:.0f} dB(A) set for its room; the loudest source is {source}.",
                    db=fig.db, band=fig.band, room=room, source=loud.label if loud else ""),
                  fix=fix, limits=LIMITS, gpus=gpus, parts=(loud.part,) if loud and loud.part else (),
                  figures=(("training_db", round(fig.db, 1)), ("band_db", round(fig.band, 1)),
                           ("room_db", room)))
