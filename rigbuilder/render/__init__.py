"""Qt rendering without widgets: the PDF of a report (``pdf``), the writing of every report format
(``report``) and the board drawing (``board``: what the window's board view shows, on paper). The
command line may use it; it never imports ``rigbuilder.ui`` nor Qt's widgets (import-linter
contracts and tests/test_imports.py say so). A QGuiApplication must exist before a PDF or the board
is rendered."""
