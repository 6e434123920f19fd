"""The app icon rasterised from its SVG with Qt's SVG renderer (a QImage and a QPainter, no
widgets and no window): the PNGs ``rigbuilder --install-shortcut`` puts in the icon theme, the
Windows .ico and the macOS .icns (``rigbuilder.shortcut``)."""
from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer


def svg_to_png(svg: bytes, size: int) -> bytes:
    """``svg`` drawn into a transparent ``size`` x ``size`` image, as PNG bytes."""
    renderer = QSvgRenderer(QByteArray(svg))
    if not renderer.isValid():
        raise ValueError("the icon is not a valid SVG image")
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    painter = QPainter(img)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not img.save(buf, "PNG"):
        raise ValueError(f"cannot encode a {size} px PNG")
    return bytes(buf.data())
