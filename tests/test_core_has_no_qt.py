"""The plain-Python core never imports Qt (checked two ways)."""
from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import rigbuilder

CORE = ("domain", "rules", "models", "catalog", "files")
ROOT = Path(rigbuilder.__file__).resolve().parent.parent


def test_core_modules_import_without_qt():
    """Import every core module in a fresh interpreter where importing Qt fails."""
    mods = []
    for pkg in CORE:
        path = Path(rigbuilder.__file__).parent / pkg
        mods.append(f"rigbuilder.{pkg}")
        mods += [f"rigbuilder.{pkg}.{m.name}" for m in pkgutil.iter_modules([str(path)])
                 if m.name not in ("env",)]
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6', 'PyQt5', 'PyQt6'):\n"
        "            raise ImportError('Qt imported by the core: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"import importlib\nfor m in {mods!r}:\n    importlib.import_module(m)\n"
        "print('ok', len(sys.modules))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok")


def test_import_linter_contracts():
    """The import-linter contracts in pyproject.toml hold (layers and the Qt ban)."""
    lint = Path(sys.executable).with_name("lint-imports")
    r = subprocess.run([str(lint)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
