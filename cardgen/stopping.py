"""How cardgen stops when it is asked to: Ctrl-C (SIGINT) and SIGTERM (`kill`, a CI time-out, a service manager).

Both become an exception in the main thread (`handling()`, around every command) — SIGINT a `KeyboardInterrupt`,
SIGTERM `Terminated`, a subclass of it — so that every command unwinds the same way: a file being written is thrown
away with its temporary file, a build's transaction rolls back, forked workers are stopped and waited for. The CLI
turns them into exit 130 and 143 (128 + the signal's number, as a shell reports a process killed by it).

A few steps must not be cut in half — creating a temporary file and noting it, handing a worker's files to the
parent, committing a transaction, cleaning up after a failure: `held()` makes both signals wait until the step is
done, and the exception is raised as it ends. It masks them in this thread and, for a signal delivered to another
thread (a process pool's), the handler itself waits.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_TERMINATED = 143  # 128 + SIGTERM

_holding = 0  # `held` blocks open in this process
_pending: int | None = None  # a signal that arrived inside one, raised as the outermost ends
_handling = 0  # `handling` blocks open: a signal held back belongs to the command it arrived in, never to a later one
_stopped: int | None = None  # the signal raised in the current command, even if a library caught it and raised another


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: stop as Ctrl-C stops (a `KeyboardInterrupt`, so every clean-up for one runs), exit 143."""


def _raised(signum: int) -> KeyboardInterrupt:
    global _stopped
    if _handling:
        _stopped = signum
    return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def stopped() -> KeyboardInterrupt | None:
    """The stop raised in the command under way, if any: a library that caught it and raised an error of its own
    (pydantic building a schema wraps whatever is raised inside in a `SchemaError`) must not turn Ctrl-C or SIGTERM
    into an internal error."""
    return None if _stopped is None else _raised(_stopped)


def _stop(signum: int, frame: FrameType | None) -> None:
    global _pending
    if _handling and _stopped is not None:
        return  # already stopping: another signal (a worker gets its group's SIGTERM and its parent's) would only
        # cut the clean-up short — a library's close interrupted halfway, a traceback from a generator's finaliser
    if _holding:
        _pending = _pending or signum
        return
    raise _raised(signum)


@contextlib.contextmanager
def handling() -> Iterator[None]:
    """Inside the block (a command's run) Ctrl-C raises `KeyboardInterrupt` and SIGTERM `Terminated` in the main
    thread, each held back by `held`; forked workers inherit this. Outside the main thread, where Python cannot
    handle signals, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _handling, _pending, _stopped
    previous = {signum: signal.signal(signum, _stop) for signum in STOP_SIGNALS}
    if not _handling:
        _stopped = None  # a new command: an earlier one's stop is not this one's
    _handling += 1
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _handling -= 1
        if not _handling:
            _pending = None  # the command has ended: what it held back is not raised in whatever runs next


def block() -> set[signal.Signals]:
    """Hold back Ctrl-C and SIGTERM; returns the mask to give `release`. For a step whose clean-up must start
    before the signal is raised (call `release` inside the `try` that cleans up)."""
    global _holding
    mask = {signal.Signals(signum) for signum in signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)}
    _holding += 1  # a signal delivered to another thread (not masked there) runs `_stop` here, which waits too
    return mask


def release(mask: set[signal.Signals]) -> None:
    """End what `block` began: a signal that arrived meanwhile is raised now, once no `held` block is open."""
    global _holding, _pending
    _holding -= 1
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    if not _holding and _pending is not None:
        signum, _pending = _pending, None
        # else the command it arrived in has ended (in-process callers: tests, one CLI run after another) or is stopping
        if _handling and _stopped is None:
            raise _raised(signum)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block has run; one that arrived meanwhile is raised as it ends."""
    mask = block()
    try:
        yield
    finally:
        release(mask)


def exit_code(interrupt: BaseException) -> int:
    return EXIT_TERMINATED if isinstance(interrupt, Terminated) else EXIT_INTERRUPTED
