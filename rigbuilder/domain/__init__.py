"""Plain-Python domain objects: parts, builds, findings. Never imports Qt."""
