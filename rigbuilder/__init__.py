"""rigbuilder: plan multi-GPU deep-learning workstations."""

__version__ = "0.1.0"
