"""What a network link between two cards costs: the optics and the cable, by link speed. Plain
Python, no Qt. A small declared table, each price with its source and date, used by the cluster plan
where the plan names no cable price of its own (``Network.cables_price``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from rigbuilder.domain.i18n import N_


@dataclass(frozen=True)
class LinkPrice:
    """One link: a transceiver at each end and the cable between them (new, as a shop sells them)."""

    max_gbps: float  # the fastest port speed the link carries
    label: str  # what is bought (marked N_: translated where shown)
    amount: float  # per link: both ends and the cable
    currency: str
    condition: str
    date: str
    source: str


LINKS: tuple[LinkPrice, ...] = (
    LinkPrice(40.0, N_("40G QSFP+ fibre link, 3 m: two 40GBASE-SR4 modules and an OM4 MTP cable"), 2 * 49 + 47, "USD",
              "new", "2021-01",
              "FS.com, \"40GE Data Center Cabling Options - Transceivers & Direct Attach Cables\", updated 2021-01-08: "
              "a QSFP-40G-SR4 compatible module about 49 USD, a 3 m OM4 MTP cable about 47 USD, "
              "https://community.fs.com/article/40ge-data-center-cabling-options-transceiverdirect-attach-cable.html"),
)


def link_price(port_gbps: float) -> Optional[LinkPrice]:
    """The cheapest link in the table that carries ``port_gbps`` at the same class of speed (a 40G
    link for 40G ports, not for 100G ones or 10G ones); None when the table has none."""
    for lp in sorted(LINKS, key=lambda x: x.max_gbps):
        if port_gbps <= lp.max_gbps and port_gbps > lp.max_gbps / 4:
            return lp
    return None
