"""The window's colours, light and dark, in one place.

``apply(app, choice)`` follows the preference ("system", "light" or "dark"): "system" reads
Qt 6's style hints (``QStyleHints.colorScheme``) and follows ``colorSchemeChanged``; "dark" on a
platform without a dark theme of its own (offscreen, Xvfb, many X11 desktops) uses the Fusion
style with a dark QPalette. Widgets read their colours from ``colors()`` when they draw and
listen to ``notifier().changed`` to draw again. Printing and exports always use ``LIGHT``.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from rigbuilder.render.palette import DARK, LIGHT, Palette

THEMES = ("system", "light", "dark")


_active: Palette = LIGHT


def colors() -> Palette:
    """The palette the window draws with now."""
    return _active


def qcolor(name: str, alpha: Optional[int] = None) -> QColor:
    """A colour of the active palette by field name."""
    c = QColor(getattr(_active, name))
    if alpha is not None:
        c.setAlpha(alpha)
    return c


class _Notifier(QObject):
    changed = Signal(object)  # the new Palette


_notifier: Optional[_Notifier] = None


def notifier() -> _Notifier:
    global _notifier
    if _notifier is None:
        _notifier = _Notifier()
    return _notifier


def system_is_dark() -> bool:
    """Whether the platform says its colour scheme is dark (Qt 6.5+ style hints; else the palette)."""
    app = QGuiApplication.instance()
    if app is None:
        return False
    try:
        scheme = QGuiApplication.styleHints().colorScheme()
        if scheme == Qt.ColorScheme.Dark:
            return True
        if scheme == Qt.ColorScheme.Light:
            return False
    except AttributeError:  # Qt before 6.5
        pass
    return False


def contrast_ratio(a: str | QColor, b: str | QColor) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21; text wants 4.5, large text and marks 3)."""

    def lum(c) -> float:
        c = QColor(c)
        out = []
        for v in (c.redF(), c.greenF(), c.blueF()):
            out.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]

    la, lb = sorted((lum(a), lum(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def dark_qpalette() -> QPalette:
    p = QPalette()
    window, base, text = QColor("#2b2f33"), QColor(DARK.background), QColor(DARK.text)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        p.setColor(group, QPalette.ColorRole.Window, window)
        p.setColor(group, QPalette.ColorRole.WindowText, text)
        p.setColor(group, QPalette.ColorRole.Base, base)
        p.setColor(group, QPalette.ColorRole.AlternateBase, QColor("#262a2e"))
        p.setColor(group, QPalette.ColorRole.ToolTipBase, QColor("#3a3f44"))
        p.setColor(group, QPalette.ColorRole.ToolTipText, text)
        p.setColor(group, QPalette.ColorRole.PlaceholderText, QColor("#8b949e"))
        p.setColor(group, QPalette.ColorRole.Text, text)
        p.setColor(group, QPalette.ColorRole.Button, QColor("#353a40"))
        p.setColor(group, QPalette.ColorRole.ButtonText, text)
        p.setColor(group, QPalette.ColorRole.BrightText, QColor("#ff7b72"))
        p.setColor(group, QPalette.ColorRole.Light, QColor("#4a5057"))
        p.setColor(group, QPalette.ColorRole.Midlight, QColor("#40464c"))
        p.setColor(group, QPalette.ColorRole.Mid, QColor("#30353a"))
        p.setColor(group, QPalette.ColorRole.Dark, QColor("#181b1e"))
        p.setColor(group, QPalette.ColorRole.Shadow, QColor("#000000"))
        p.setColor(group, QPalette.ColorRole.Highlight, QColor("#2f6fb3"))
        p.setColor(group, QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
        p.setColor(group, QPalette.ColorRole.Link, QColor(DARK.accent))
        p.setColor(group, QPalette.ColorRole.LinkVisited, QColor("#bc8cff"))
    dis = QPalette.ColorGroup.Disabled
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        p.setColor(dis, role, QColor("#7d8590"))
    p.setColor(dis, QPalette.ColorRole.Window, window)
    p.setColor(dis, QPalette.ColorRole.Base, QColor("#24282c"))
    p.setColor(dis, QPalette.ColorRole.Button, QColor("#30353a"))
    return p


_state = {"choice": "system", "light_style": None, "light_palette": None, "hooked": False}


def wanted(choice: str) -> Palette:
    """The palette for a preference value."""
    if choice == "dark":
        return DARK
    if choice == "light":
        return LIGHT
    return DARK if system_is_dark() else LIGHT


def apply(app, choice: str = "system") -> Palette:
    """Use the theme the preference ``choice`` asks for on ``app``; returns the palette in use."""
    global _active
    from PySide6.QtWidgets import QStyleFactory

    if choice not in THEMES:
        choice = "system"
    _state["choice"] = choice
    if _state["light_style"] is None:
        _state["light_style"] = app.style().name()
        _state["light_palette"] = QPalette(app.palette())
    if not _state["hooked"]:
        try:
            QGuiApplication.styleHints().colorSchemeChanged.connect(lambda _s: _system_changed(app))
        except AttributeError:
            pass
        _state["hooked"] = True
    pal = wanted(choice)
    sys_dark = system_is_dark()
    # (Qt 6.8's styleHints().setColorScheme is not used: it would make the platform report our
    # choice as the desktop's, and "Follow the desktop" could no longer tell what the desktop says.)
    if pal is DARK and not sys_dark:
        # The platform draws no dark widgets of its own: Fusion with a dark palette.
        app.setStyle(QStyleFactory.create("Fusion"))
        app.setPalette(dark_qpalette())
    elif pal is LIGHT and sys_dark:
        app.setStyle(QStyleFactory.create("Fusion"))
        app.setPalette(app.style().standardPalette())
    else:  # the platform's own look
        app.setStyle(QStyleFactory.create(_state["light_style"]) or QStyleFactory.create("Fusion"))
        app.setPalette(_state["light_palette"])
    changed = pal is not _active
    _active = pal
    if changed:
        notifier().changed.emit(pal)
    return pal


def _system_changed(app) -> None:
    if _state["choice"] == "system":
        apply(app, "system")


def reset_for_tests() -> None:
    global _active
    _active = LIGHT
