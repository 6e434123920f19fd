"""Sub-commands of the command line; each module has ``register(subparsers)``."""
