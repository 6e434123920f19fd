"""Checks: pure functions from a build (resolved against the catalog) to findings. No Qt."""
