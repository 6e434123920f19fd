"""Small widgets the panels share."""
from __future__ import annotations

from typing import Any, Iterable, Optional, Union

from PySide6.QtCore import QLocale, QSize, Qt
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QGraphicsItem, QLabel, QSizePolicy, QSpinBox, QWidget


def ui_locale() -> Optional[QLocale]:
    """Qt's locale for the window's language (spin boxes write their numbers with it: 1.500 in
    German, 1 500 in French); None for English, where Qt's default stays."""
    from rigbuilder.domain.i18n import TRANSLATED
    from rigbuilder.ui.i18n import ui_language

    lang = ui_language()
    return QLocale(lang) if lang in TRANSLATED else None


def follow_ui_locale(widget: QWidget) -> None:
    """Numbers in ``widget`` and its children as the window's language writes them."""
    loc = ui_locale()
    if loc is not None:
        widget.setLocale(loc)


def spin_box(lo: float, hi: float, *, decimals: Optional[int] = None, step: Optional[float] = None,
             value: Optional[float] = None, prefix: str = "", suffix: str = "", lowest: str = "",
             tip: str = "") -> Union[QSpinBox, QDoubleSpinBox]:
    """A spin box from ``lo`` to ``hi``: whole numbers (a QSpinBox), or with ``decimals`` a
    QDoubleSpinBox; ``lowest`` is shown for the lowest value ("any", "no limit"), ``tip`` on hover."""
    box: Union[QSpinBox, QDoubleSpinBox]
    if decimals is None:
        box = QSpinBox()
        box.setRange(int(lo), int(hi))
    else:
        box = QDoubleSpinBox()
        box.setDecimals(decimals)
        box.setRange(lo, hi)
    if step is not None:
        box.setSingleStep(step)
    if value is not None:
        box.setValue(value)
    if prefix:
        box.setPrefix(prefix)
    if suffix:
        box.setSuffix(suffix)
    if lowest:
        box.setSpecialValueText(lowest)
    if tip:
        box.setToolTip(tip)
    return box


def choice_box(choices: Iterable[tuple[str, Any]], tip: str = "", current: Any = None) -> QComboBox:
    """A drop-down of (shown text, data) choices, the one whose data is ``current`` chosen."""
    box = QComboBox()
    for text, data in choices:
        box.addItem(text, data)
    if current is not None and box.findData(current) >= 0:
        box.setCurrentIndex(box.findData(current))
    if tip:
        box.setToolTip(tip)
    return box


def cache_as_pixmap(item: QGraphicsItem, only: Optional[type] = None) -> None:
    """Keep ``item`` and its children (those of type ``only``, if given) as device pixmaps: a
    repaint of a region they cross copies the pixmap instead of drawing them again."""
    if only is None or isinstance(item, only):
        item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    for child in item.childItems():
        cache_as_pixmap(child, only)


LONG_WORD = 36
"""A word (a run without spaces, such as a part name of 2,000 letters) longer than this is elided
in a label: the full text is its tooltip."""


def elide_long_words(text: str, most: int = LONG_WORD) -> str:
    """``text`` with each word of more than ``most`` characters cut to ``most`` and an ellipsis,
    so that one long name cannot widen a panel or run past its edge."""
    import re

    if len(text) <= most:
        return text
    return re.sub(r"[^\s,;]{%d,}" % (most + 1), lambda m: m.group(0)[:most - 1] + "\u2026", text)


class QuietLabel(QWidget):
    """A label whose text changes on every edit without laying out the window again.

    A QLabel asks its parent's layout to run again on every ``setText`` (Qt skips that only for
    a widget of fixed width and height), and that layout asks every sibling for its size: on the
    main window that cost about a millisecond an edit. The label here sits in a holder with no
    layout, so the request ends there; the holder tells its own layout only when the text needs
    a different height (another line wrapped). Its width is what the layout gives it.
    Without ``wrap`` it is one line: measured once, with its first text.
    """

    def __init__(self, text: str = "", wrap: bool = False, rich: bool = False,
                 parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.label = QLabel(self)
        self.label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
        self.label.setWordWrap(wrap)
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self._wrap = wrap
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        # Opaque: a new text repaints this label only, not the panel and the dock behind it.
        self.setAutoFillBackground(True)
        self._h = -1
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt name)
        if text == getattr(self, "_full", None):
            return
        self._full = text
        shown = text if self.label.textFormat() == Qt.TextFormat.RichText else elide_long_words(text)
        self.label.setToolTip(text if shown != text else "")  # an elided long name in full
        self.label.setText(shown)
        self._fit()

    def text(self) -> str:
        """The whole text (a long name shown elided is whole here, and in the tooltip)."""
        return getattr(self, "_full", self.label.text())

    def _fit(self) -> None:
        w = self.width()
        if self._wrap and w > 0:
            h = self.label.heightForWidth(w)
        elif self._h < 0 or self._wrap:
            h = self.label.sizeHint().height()
        else:
            h = self._h  # one line: as tall whatever it says (measuring rich text costs 0.1 ms)
        if h != self._h:
            self._h = h
            self.setFixedHeight(h)  # the one case that lays out the parent again
        self.label.resize(w, h)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(self.label.sizeHint().width() if not self._wrap else 0, max(self._h, 0))

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(0, max(self._h, 0))

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit()
