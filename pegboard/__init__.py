"""pegboard: a cribbage pegboard companion for the Raspberry Pi."""

__version__ = "0.1.0"
