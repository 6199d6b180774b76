"""Build `providers/memory/english_words.gz`, the English words the memory reader knows are
not names, from SCOWL as Debian ships it (the `wamerican` and `wbritish` packages).

    apt-get download wamerican wbritish
    python scripts/build_english_words.py wamerican_*.deb wbritish_*.deb

The file holds every entry of the two lists that is written in lower case (so no proper
noun), without possessives, one a line, sorted, gzip'd. SCOWL's licence allows copying the
lists and what is derived from them with its notice, which `english_words.NOTICE` carries.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "providers" / "memory" / "english_words.gz"


def lower_case_entries(deb: Path) -> set[str]:
    with tempfile.TemporaryDirectory() as root:
        subprocess.run(["dpkg-deb", "-x", str(deb), root], check=True)
        lists = [p for p in Path(root, "usr/share/dict").iterdir() if p.name != "words"]
        return {
            word
            for path in lists
            for word in path.read_text(encoding="utf-8").split()
            if word == word.lower() and "'" not in word
        }


def main(debs: list[str]) -> None:
    words = set().union(*(lower_case_entries(Path(deb)) for deb in debs))
    data = "\n".join(sorted(words)).encode() + b"\n"
    OUT.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(f"{OUT}: {len(words)} words")


if __name__ == "__main__":
    main(sys.argv[1:])
