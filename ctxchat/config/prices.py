"""`[prices."MODEL"]`: what the user pays per million tokens in and out, for `usage` and
`/cost`. The user fills it in; ctxchat ships no price list, which would go stale in the code.

    [prices."gpt-4o-mini"]
    input = 0.15    # per million input (prompt) tokens
    output = 0.60   # per million output (completion) tokens
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PRICE_KEYS = ("input", "output")


@dataclass(frozen=True)
class Price:
    """Per million tokens, in whatever currency the user writes them in."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000


def parse_prices(raw: Any, problems: list[str]) -> dict[str, Price]:
    """The `[prices]` table by model name; each fault a line in `problems`."""
    if not isinstance(raw, Mapping):
        problems.append('prices: expected a table of models ([prices."MODEL"])')
        return {}
    prices: dict[str, Price] = {}
    for model, entry in raw.items():
        where = f'prices."{model}"'
        if not isinstance(entry, Mapping):
            problems.append(f"{where}: expected a table with input and output")
            continue
        unknown = [k for k in entry if k not in PRICE_KEYS]
        for key in unknown:
            problems.append(f"{where}.{key}: unknown setting (a price has input and output)")
        values: dict[str, float] = {}
        for key in PRICE_KEYS:
            value = entry.get(key)
            if value is None:
                problems.append(f"{where}.{key}: missing (the price per million {key} tokens)")
            elif (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value < 0
            ):
                problems.append(f"{where}.{key}: expected a number of 0 or more, not {value!r}")
            else:
                values[key] = float(value)
        if len(values) == len(PRICE_KEYS) and not unknown:
            prices[str(model)] = Price(values["input"], values["output"])
    return prices
