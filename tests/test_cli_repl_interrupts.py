"""Ctrl-C while the REPL runs: it cancels what is running, and is ignored between prompts
instead of ending the chat."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from ctxchat.cli.terminal import cancellable, ctrl_c_guard, rearm_ctrl_c


def test_an_interrupt_with_nothing_running_is_ignored_under_the_guard() -> None:
    async def scenario() -> str:
        with ctrl_c_guard():
            os.kill(os.getpid(), signal.SIGINT)
            await asyncio.sleep(0.05)  # the signal is delivered while nothing runs
            return "still here"

    assert asyncio.run(scenario()) == "still here"


def test_an_interrupt_cancels_what_cancellable_runs_under_the_guard() -> None:
    async def scenario() -> None:
        with ctrl_c_guard():
            loop = asyncio.get_running_loop()
            loop.call_later(0.05, os.kill, os.getpid(), signal.SIGINT)
            with pytest.raises(asyncio.CancelledError):
                await cancellable(asyncio.sleep(30))
            # ...and the guard is back in charge afterwards.
            os.kill(os.getpid(), signal.SIGINT)
            await asyncio.sleep(0.05)

    asyncio.run(scenario())


def test_the_guard_survives_a_prompt_that_took_the_handler_away() -> None:
    async def scenario() -> str:
        with ctrl_c_guard():
            loop = asyncio.get_running_loop()
            # What prompt-toolkit does around each line it reads.
            loop.add_signal_handler(signal.SIGINT, lambda: None)
            loop.remove_signal_handler(signal.SIGINT)
            rearm_ctrl_c()
            os.kill(os.getpid(), signal.SIGINT)
            await asyncio.sleep(0.05)
            return "still here"

    assert asyncio.run(scenario()) == "still here"


def test_without_the_guard_an_interrupt_is_a_keyboard_interrupt() -> None:
    async def scenario() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        await asyncio.sleep(0.05)

    with pytest.raises(KeyboardInterrupt):
        asyncio.run(scenario())
