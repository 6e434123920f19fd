"""Build files and exports. Never imports Qt."""
