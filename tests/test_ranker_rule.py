"""The rule that a ranker other than the lexical one needs embeddings is stated once
(`missing_embeddings`), for the tool selector and `ctxchat tools eval` alike."""

from __future__ import annotations

import pytest

from ctxchat.ranking.selection import RANKER_KINDS, missing_embeddings


@pytest.mark.parametrize("kind", RANKER_KINDS)
def test_only_the_lexical_ranker_runs_without_embeddings(kind: str) -> None:
    assert missing_embeddings(kind, has_embeddings=True) is None
    problem = missing_embeddings(kind, has_embeddings=False)
    assert (problem is None) == (kind == "lexical")
    assert problem is None or problem == (
        f"the {kind} ranker needs an embeddings endpoint ([embeddings])"
    )
