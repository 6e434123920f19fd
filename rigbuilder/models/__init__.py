"""Plain-Python models: lanes, power, running cost, performance. Never imports Qt."""
