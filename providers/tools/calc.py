"""The calculator tool: arithmetic on numbers, parsed with `ast`, never `eval`.

Only number literals, + - * / // % **, unary signs, parentheses, the constants `pi`, `e`
and `tau`, and a few functions of `math` are accepted; a name, an attribute, a call to
anything else, a string or a comprehension is refused before anything is computed. Sizes
are bounded so that `9**9**9` is refused instead of taking the machine for minutes.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

MAX_EXPRESSION = 500  # characters
MAX_EXPONENT = 10_000
MAX_INT_BITS = 14_000  # about 4,200 digits: under the int-to-text limit

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}
CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "abs": abs,
    "round": round,
    "min": min,
    "max": max,
    "sqrt": math.sqrt,
    "exp": math.exp,
    "log": math.log,
    "log10": math.log10,
    "log2": math.log2,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "floor": math.floor,
    "ceil": math.ceil,
    "factorial": math.factorial,
}
MAX_FACTORIAL = 1000
MAX_ROUND_DIGITS = 1000
# The largest magnitude of each function's arguments, by position. Sizes of results are
# checked after each step, but some calls are slow on small arguments: `round(1, -10**9)`
# builds a billion-digit power of ten in one C call that holds the GIL. Every other
# function of the list is a float function or linear in its arguments' size.
ARGUMENT_BOUNDS: dict[str, dict[int, int]] = {
    "factorial": {0: MAX_FACTORIAL},
    "round": {1: MAX_ROUND_DIGITS},  # ndigits: round(1, -n) is a power of ten of n digits
}


class NotArithmetic(ValueError):
    """The expression holds something other than arithmetic."""


def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression: numbers, + - * / // % ** and parentheses, the
    constants pi, e and tau, and abs, round, min, max, sqrt, exp, log, log10, log2, sin,
    cos, tan, asin, acos, atan, floor, ceil, factorial. Example: (2 + 3) * sqrt(16).

    Args:
        expression: the arithmetic expression to evaluate
    """
    if len(expression) > MAX_EXPRESSION:
        raise NotArithmetic(f"expression longer than {MAX_EXPRESSION} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        raise NotArithmetic(f"not an arithmetic expression: {exc}") from None
    try:
        value = _evaluate(tree.body)
    except ZeroDivisionError:
        raise ArithmeticError("division by zero") from None
    except RecursionError:
        raise NotArithmetic("expression nested too deeply") from None
    return _show(value)


def _evaluate(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise NotArithmetic(f"only numbers are allowed, not {value!r}")
        return value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow):
            _check_power(left, right)
        return _checked(_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.Name) and node.id in CONSTANTS:
        return CONSTANTS[node.id]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in FUNCTIONS
        and not node.keywords
    ):
        arguments = [_evaluate(a) for a in node.args]
        _check_arguments(node.func.id, arguments)
        return _checked(FUNCTIONS[node.func.id](*arguments))
    raise NotArithmetic(f"not allowed in arithmetic: {_describe(node)}")


def _check_arguments(name: str, arguments: list[Any]) -> None:
    for position, bound in ARGUMENT_BOUNDS.get(name, {}).items():
        if position < len(arguments) and abs(arguments[position]) > bound:
            which = f"argument {position + 1} of {name}"
            raise NotArithmetic(f"{which} is limited to -{bound} to {bound}")


def _check_power(base: Any, exponent: Any) -> None:
    if isinstance(exponent, int) and abs(exponent) > MAX_EXPONENT and abs(base) > 1:
        raise NotArithmetic(f"exponent too large (more than {MAX_EXPONENT})")
    whole = isinstance(base, int) and isinstance(exponent, int) and exponent > 0
    if whole and base.bit_length() * exponent > MAX_INT_BITS:
        raise NotArithmetic("result too large")


def _checked(value: Any) -> Any:
    if isinstance(value, complex):
        raise NotArithmetic("the result is not a real number")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise NotArithmetic("result too large")
    return value


def _show(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def _describe(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return f"the name '{node.id}'"
    if isinstance(node, ast.Call):
        return "a call to anything but the listed functions"
    return f"a {type(node).__name__} expression"
