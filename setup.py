"""The wheel's build step (issue 45); everything else about the package is in pyproject.toml.

``build_py`` puts into the built package what lives outside ``rigbuilder/`` in a checkout, so that
an installed wheel reads nothing from a source tree:

- ``resources/`` (the shipped catalog and money files, icons, example builds) as ``rigbuilder/resources/``, where
  ``rigbuilder.catalog.loader.resources_dir()`` looks first. The folder stays where it is in the
  checkout; only the build maps it. The prebuilt ``catalog.sqlite`` a checkout may hold is left
  out: an installed wheel builds the catalog's database in the user's cache on its first start.
- ``packaging/linux/`` (the desktop entry and the ``.rig`` MIME type) as
  ``rigbuilder/resources/desktop/``, which ``rigbuilder --install-shortcut`` reads.
- the translations compiled from the ``.po`` sources to ``.mo`` (``scripts/i18n.py compile``);
  the ``.po`` files go into the source distribution only.

An editable install (``pip install -e .``) maps nothing: the program finds the checkout's
``resources/`` and reads the ``.po`` files directly.
"""
from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

# checkout folder -> folder inside the built package, with the file patterns taken
MAPPED = (
    ("resources/catalog", "rigbuilder/resources/catalog", ("*.json",)),
    ("resources/money", "rigbuilder/resources/money", ("*.json",)),
    ("resources/icons", "rigbuilder/resources/icons", ("*.svg",)),
    ("resources/noise", "rigbuilder/resources/noise", ("*.json",)),
    ("resources/examples", "rigbuilder/resources/examples", ("*.rig", "*.rigcluster")),
    ("packaging/linux", "rigbuilder/resources/desktop", ("*.desktop", "*-mime.xml", "*.metainfo.xml")),
)


def compile_translations(outdir: Path) -> int:
    """``scripts/i18n.py compile`` (one place for how a ``.po`` becomes a ``.mo``)."""
    spec = importlib.util.spec_from_file_location("rigbuilder_i18n_script", ROOT / "scripts" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.compile_to(outdir)


def add_package_data(lib: Path) -> int:
    """Into the built package under ``lib``: the mapped folders' files and the compiled
    translations (in place of the ``.po`` files). Returns the number of ``.mo`` files."""
    for src, dest, patterns in MAPPED:
        target = lib / dest
        shutil.rmtree(target, ignore_errors=True)
        files = sorted({f for pattern in patterns for f in (ROOT / src).glob(pattern) if f.is_file()})
        if not files:
            raise SystemExit(f"build: nothing to package in {src} ({', '.join(patterns)})")
        target.mkdir(parents=True)
        for f in files:
            shutil.copyfile(f, target / f.name)
    locale = lib / "rigbuilder" / "locale"
    for stale in locale.glob("*/LC_MESSAGES/*.po"):
        stale.unlink()
    n = compile_translations(locale)
    if not n:
        raise SystemExit("build: no translation catalogs compiled")
    return n


class BuildPyWithResources(build_py):
    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            n = add_package_data(Path(self.build_lib))
            self.announce(f"compiled {n} translation catalogs", level=2)


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import it
    setup(cmdclass={"build_py": BuildPyWithResources})
