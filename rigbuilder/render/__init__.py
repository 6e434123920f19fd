"""Qt rendering without widgets: the PDF of a report (``pdf``) and the writing of every report
format (``report``). The command line may use it; it never imports ``rigbuilder.ui`` nor Qt's
widgets (import-linter contracts say so): the board drawing, which the window's board view draws,
is given to it as a function. A QApplication must exist before a PDF is rendered."""
