"""Room 25 Companion: a rules engine and table companion for the board game Room 25."""

__version__ = "0.1.0"
