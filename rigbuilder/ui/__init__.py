"""The Qt layer: windows, views, panels, graphs, dialogs, undo commands. Decides nothing."""
