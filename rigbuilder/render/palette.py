"""The colours of the window and its drawings, light and dark (the window's theme picks one:
``rigbuilder.ui.theme``; printing and exports always use ``LIGHT``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Palette:
    name: str
    # the window
    text: str
    muted: str  # secondary text (labels in the details pane, captions)
    background: str  # the panels' and the plots' background
    error: str
    warning: str
    info: str
    accent: str  # links, highlight frames
    # the board drawing (the board itself stays a green PCB in both)
    scene: str  # around the board
    riser_fill: str
    riser_edge: str
    riser_text: str
    bracket_text: str
    label_fill: str  # behind a gap's figure, the hover tag
    label_text: str
    # plots
    axis: str
    grid_text: str
    hover_fill: str
    marker: str  # markers and lines drawn in the text colour (wall marks, cost curve)


LIGHT = Palette(
    name="light", text="#222222", muted="#555555", background="#ffffff",
    error="#c5221f", warning="#a35a00", info="#5f6368", accent="#1a73e8",
    scene="#eef1f4", riser_fill="#e3e7eb", riser_edge="#8a9199", riser_text="#444444", bracket_text="#333333",
    label_fill="#ffffff", label_text="#111111",
    axis="#555555", grid_text="#222222", hover_fill="#ffffff", marker="#222222",
)

DARK = Palette(
    name="dark", text="#e6e6e6", muted="#a8b0b8", background="#1e2124",
    error="#ff7b72", warning="#e3b341", info="#a8b0b8", accent="#58a6ff",
    scene="#15181b", riser_fill="#262b30", riser_edge="#6e7781", riser_text="#c9d1d9", bracket_text="#c9d1d9",
    label_fill="#1e2124", label_text="#f0f3f6",
    axis="#a8b0b8", grid_text="#e6e6e6", hover_fill="#2a2f35", marker="#e6e6e6",
)
