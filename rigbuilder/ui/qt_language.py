"""Qt's own texts (the standard buttons, the file, print and colour dialogs) in the window's language.

They come from the translations PySide6 ships (``qtbase_<lang>.qm`` in Qt's translations folder,
``QLibraryInfo.path(TranslationsPath)``). Those catalogs lag behind Qt's sources: Qt 6 writes the
file dialog's labels with a keyboard mnemonic ("&Look in:", "Files of &type:"), while the French,
Japanese and Chinese catalogs still hold only the older texts without it ("Look in:" ->
"Voir dans :", "アドレス:", "查找范围："). :class:`MnemonicFallback` fills that gap: a text Qt's
catalog does not know is looked up again without its "&", and the answer gets the mnemonic back in
the language's way ("&Voir dans :", "アドレス(&L):"), so no label is left in English.
"""
from __future__ import annotations

import re
from typing import Optional

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

_CJK = ("ja", "zh")
_TRAILING = re.compile(r"(\s*[:：]\s*)$")


def with_mnemonic(translated: str, letter: str, lang: str) -> str:
    """``translated`` with the keyboard mnemonic ``letter`` put back: in Japanese and Chinese as
    "(&L)" before a closing colon ("アドレス(&L):"), elsewhere before the first word ("&Voir dans :",
    or before the letter itself where the translation holds it)."""
    if not letter or "&" in translated:
        return translated
    if lang.split("_")[0] in _CJK:
        m = _TRAILING.search(translated)
        cut = m.start() if m else len(translated)
        return f"{translated[:cut]}(&{letter.upper()}){translated[cut:]}"
    at = translated.lower().find(letter.lower())
    if at < 0 or not translated[at].isalpha():
        at = next((i for i, ch in enumerate(translated) if ch.isalpha()), 0)
    return translated[:at] + "&" + translated[at:]


class MnemonicFallback(QTranslator):
    """Asked after Qt's own catalog (installed before it: Qt asks the last installed first): a text
    with a mnemonic that catalog does not hold, looked up there without the "&"."""

    def __init__(self, base: QTranslator, lang: str, parent=None) -> None:
        super().__init__(parent)
        self.base, self.lang = base, lang

    def translate(self, context: str, source: str, disambiguation: Optional[str] = None, n: int = -1) -> str:
        if not source or "&" not in source or "&&" in source:
            return ""
        at = source.index("&")
        bare = source[:at] + source[at + 1:]
        got = self.base.translate(context, bare, disambiguation, n)
        return with_mnemonic(got, source[at + 1:at + 2], self.lang) if got else ""

    def isEmpty(self) -> bool:
        return False


_installed: list[QTranslator] = []


def install_qt_translations(lang: str) -> bool:
    """Qt's own texts in ``lang`` (``qtbase_<lang>.qm`` and the mnemonic fallback over it); the ones
    installed before are taken out first. True when Qt's catalog for ``lang`` was found."""
    app = QCoreApplication.instance()
    if app is None:
        return False
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    if lang in ("en", "", None):
        return False
    base = QTranslator(app)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if not base.load(QLocale(lang), "qtbase", "_", folder):
        return False
    fallback = MnemonicFallback(base, lang, app)
    app.installTranslator(fallback)  # asked last
    app.installTranslator(base)
    _installed[:] = [base, fallback]  # kept alive while installed
    return True
