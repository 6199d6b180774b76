"""Build `providers/memory/english_words.gz`, the English words the memory reader knows are
not names, and `english_name_words.gz`, those of them that are names as well ("grace",
"tom", "may"), from SCOWL as Debian ships it (the `wamerican` and `wbritish` packages).

    apt-get download wamerican wbritish
    python scripts/build_english_words.py wamerican_*.deb wbritish_*.deb

The first file holds every entry of the two lists that is written in lower case (so no
proper noun), without possessives; the second every such word that the lists also hold
with a capital first letter, lower-cased. One word a line, sorted, gzip'd. SCOWL's licence
allows copying the lists and what is derived from them with its notice, which
`english_words.NOTICE` carries.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "providers" / "memory"


def entries(deb: Path) -> set[str]:
    with tempfile.TemporaryDirectory() as root:
        subprocess.run(["dpkg-deb", "-x", str(deb), root], check=True)
        lists = [p for p in Path(root, "usr/share/dict").iterdir() if p.name != "words"]
        return {
            word
            for path in lists
            for word in path.read_text(encoding="utf-8").split()
            if "'" not in word
        }


def write(name: str, words: set[str]) -> None:
    data = "\n".join(sorted(words)).encode() + b"\n"
    (HERE / name).write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(f"{name}: {len(words)} words")


def main(debs: list[str]) -> None:
    listed = set().union(*(entries(Path(deb)) for deb in debs))
    words = {word for word in listed if word == word.lower()}
    write("english_words.gz", words)
    # Two letters or fewer are SCOWL's symbols and initials ("He", "It", "B"), no names.
    names = {w.lower() for w in listed if w.istitle() and len(w) > 2}
    write("english_name_words.gz", names & words)


if __name__ == "__main__":
    main(sys.argv[1:])
