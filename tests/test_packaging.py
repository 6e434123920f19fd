"""The wheel's build step (setup.py, issue 45): what it adds to the built package, and that the
program then reads its catalog, money files and translations from inside the package. The whole
build, install and run through pipx is packaging/test-install.sh (CI runs it)."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The package as build_py leaves it: a copy of rigbuilder/ (with its .po files, as the
    package data declares them), then setup.py's additions."""
    spec = importlib.util.spec_from_file_location("rigbuilder_setup", ROOT / "setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)  # not as __main__: defines, does not build
    lib = tmp_path_factory.mktemp("build-lib")
    shutil.copytree(ROOT / "rigbuilder", lib / "rigbuilder", ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    assert setup.add_package_data(lib) == len(list((ROOT / "rigbuilder/locale").glob("*/LC_MESSAGES/*.po")))
    return lib


def test_the_package_holds_the_catalog_money_icons_and_desktop_data(built):
    res = built / "rigbuilder" / "resources"
    for folder, pattern in (("catalog", "*.json"), ("money", "*.json"), ("icons", "*.svg"), ("examples", "*.rig*")):
        want = sorted(p.name for p in (ROOT / "resources" / folder).glob(pattern))
        assert want and sorted(p.name for p in (res / folder).iterdir()) == want, folder
    assert not (res / "catalog" / "catalog.sqlite").exists()
    assert {p.name for p in (res / "desktop").iterdir()} == {
        "rigbuilder.desktop", "rigbuilder-mime.xml", "io.github.rigbuilder.metainfo.xml"}


def test_translations_are_compiled_and_their_sources_left_out(built):
    locale = built / "rigbuilder" / "locale"
    sources = sorted(p.relative_to(ROOT / "rigbuilder/locale").with_suffix(".mo")
                     for p in (ROOT / "rigbuilder/locale").glob("*/LC_MESSAGES/*.po"))
    assert sorted(p.relative_to(locale) for p in locale.glob("*/LC_MESSAGES/*.mo")) == sources
    assert not list(locale.glob("*/LC_MESSAGES/*.po"))


def test_the_built_package_reads_its_own_files(built, tmp_path):
    """Run from the built copy alone (cwd elsewhere, the checkout off sys.path): resources_dir()
    and the translations are inside it, and the German catalog comes from the .mo files."""
    code = (
        "import sys, rigbuilder\n"
        "from rigbuilder.catalog.loader import resources_dir\n"
        "from rigbuilder.domain import i18n\n"
        "print(rigbuilder.__file__); print(resources_dir()); print(i18n.LOCALE_DIR)\n"
        "print(i18n.gettext('remove what --install-shortcut added', 'de'))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                       env={"PYTHONPATH": str(built), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    package, res, locale, german = r.stdout.splitlines()
    for p in (package, res, locale):
        assert Path(p).is_relative_to(built), p
    assert german == "entfernen, was --install-shortcut hinzugefügt hat"


def test_every_resources_folder_the_program_reads_is_mapped_into_the_package():
    """A new folder of shipped data (the noise figures were one) must go into the wheel too."""
    spec = importlib.util.spec_from_file_location("rigbuilder_setup_map", ROOT / "setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    mapped = {src for src, _dst, _pats in setup.MAPPED}
    folders = {f"resources/{p.name}" for p in (ROOT / "resources").iterdir() if p.is_dir()}
    assert folders <= mapped, sorted(folders - mapped)
