"""Entry point placeholder; replaced by the Typer app."""

from __future__ import annotations


def main() -> None:
    import sys

    from ctxchat import __version__

    if "--version" in sys.argv:
        print(f"ctxchat {__version__}")
