"""Entry script for the frozen program (PyInstaller): the same door as the ``rigbuilder`` command."""
import sys

from rigbuilder.cli import main

if __name__ == "__main__":
    sys.exit(main())
