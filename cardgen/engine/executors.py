"""Where games run: in this process, in a pool of local processes, or on a Dask cluster's workers.

Every kind is a `concurrent.futures.Executor` (or none, for this process), so the runner and the balance sweep need
not know which: a game's seed derives from the root seed and its index, never from where it ran. Dask
(`dask.distributed`, the optional extra `cardgen[cluster]`) runs batches on the workers of a scheduler named by
`--scheduler ADDRESS`, or on a cluster of local worker processes started here when no address is given; a worker lost
mid-batch has its batch run again elsewhere by the scheduler (up to `distributed.scheduler.allowed-failures` times).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from cardgen.errors import DataError

KINDS = ("local", "processes", "dask")
CLUSTER_EXTRA = "pip install 'cardgen[cluster]'"


@dataclass(frozen=True)
class Workers:
    """An executor (None: this process) with how many batches it runs at once and a description for reports."""

    executor: Executor | None
    slots: int
    where: str


def choose_kind(kind: str | None, jobs: int, scheduler: str | None) -> str:
    """The executor kind a command line asks for: by default Dask when a scheduler is named, processes when more
    than one job is asked for, else this process."""
    if scheduler is not None and kind not in (None, "dask"):
        raise DataError(f"--scheduler {scheduler}: a scheduler address needs --executor dask, not {kind}")
    if kind is None:
        return "dask" if scheduler is not None else "processes" if jobs > 1 else "local"
    if kind not in KINDS:
        raise DataError(f"--executor {kind}: not one of {', '.join(KINDS)}")
    return kind


@contextlib.contextmanager
def open_workers(kind: str, jobs: int, scheduler: str | None = None) -> Iterator[Workers]:
    """The workers of one run, shut down when the block ends (a remote cluster is left running, only disconnected)."""
    if kind == "local":
        yield Workers(None, 1, "this process")
    elif kind == "processes":
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            yield Workers(pool, jobs, f"{jobs} local process{'es' if jobs > 1 else ''}")
    else:
        with _dask_client(jobs, scheduler) as client:
            slots = max(1, sum(client.nthreads().values()))
            where = f"Dask scheduler {scheduler}" if scheduler else "a local Dask cluster"
            where += f" with {slots} worker thread{'s' * (slots > 1)}"
            yield Workers(client.get_executor(pure=False), slots, where)  # not pure: every batch is a task of its own


@contextlib.contextmanager
def _dask_client(jobs: int, scheduler: str | None) -> Iterator[Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise DataError(f"--executor dask needs Dask: {CLUSTER_EXTRA}") from None
    if scheduler is None:
        with _deaf_to_ctrl_c():  # Ctrl-C is this process's to handle: worker processes started now ignore it
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
            )
        with cluster, Client(cluster) as client:  # type: ignore[no-untyped-call]
            yield client
        return
    try:
        client = Client(scheduler)  # type: ignore[no-untyped-call]
    except (OSError, ValueError, TypeError) as exc:  # refused, timed out, or not an address
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise DataError(f"--scheduler {scheduler}: no Dask scheduler answers there ({_short(reason)})") from None
    with client:
        if not client.nthreads():  # type: ignore[no-untyped-call]
            try:
                client.wait_for_workers(1, timeout=_worker_timeout())
            except TimeoutError:
                raise DataError(f"--scheduler {scheduler}: no worker joined in {_worker_timeout():g} s") from None
        yield client


@contextlib.contextmanager
def _deaf_to_ctrl_c() -> Iterator[None]:
    """SIGINT ignored while the block starts child processes (they inherit it), so a Ctrl-C at the terminal reaches
    the command, which stops the sweep and closes the cluster, and not each worker with a traceback of its own."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _worker_timeout() -> float:
    return float(os.environ.get("CARDGEN_DASK_WORKER_TIMEOUT", "60"))


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
