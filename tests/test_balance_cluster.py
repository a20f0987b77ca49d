"""The balance lab on a real Dask cluster: a `LocalCluster` of two worker processes started by this module (no
external service) gives byte-identical reports to one process and to a process pool, and a worker killed while it
plays a batch costs nothing: the scheduler runs the batch again and the tally is the uninterrupted one."""

from __future__ import annotations

import logging
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from cardgen.balance import report
from cardgen.balance.journal import open_journal
from cardgen.balance.sweep import Sweep, data_fingerprint, run_sweep
from cardgen.engine.executors import Workers, open_workers
from cardgen.engine.runner import PlaySpec, play_many, summarise

from conftest import REPO

distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed: pip install -e '.[test]'")

DATA = str(REPO / "card_data")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, and a client; stopped when the module's tests are done."""
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
        ) as local,
        distributed.Client(local) as client,
    ):
        yield client


def test_reports_are_byte_identical_on_one_process_a_pool_and_a_dask_cluster(cluster, tmp_path: Path) -> None:
    settings = report.Settings("scifi-domains", DATA, (2, 3), 12, ("random",), 1, 3)
    figures = {}
    for name, kind, scheduler in (("here", "local", None), ("pool", "processes", None),
                                  ("dask", "dask", cluster.scheduler.address)):  # fmt: skip
        with open_workers(kind, 2, scheduler) as workers:
            figures[name] = report.as_json(report.play(settings, workers, tmp_path / name, resume=False))
            assert workers.where.startswith("Dask scheduler tcp://") == (kind == "dask")
    assert figures["pool"] == figures["here"] and figures["dask"] == figures["here"]


def test_play_summaries_on_the_cluster_equal_one_process(cluster) -> None:
    spec = PlaySpec("battlefield-space", DATA, 2, 4, ("random", "greedy"))
    alone = summarise(spec, play_many(spec, 12, batch=5), 1.0)
    spread = summarise(spec, play_many(spec, 12, cluster.get_executor(), batch=5), 1.0)
    assert spread == alone


def test_a_worker_killed_mid_batch_is_replaced_and_its_batch_played_again(cluster, tmp_path: Path) -> None:
    sweep = Sweep(PlaySpec("battlefield-space", DATA, 2, 6, ("random",)), 24, 3)
    identity = sweep.identity(data_fingerprint("battlefield-space", DATA))
    journal, kept = open_journal(tmp_path / "alone.jsonl", identity, resume=False)
    alone = run_sweep(sweep, Workers(None, 1, "here"), journal, kept)
    journal.close()
    pids = cluster.run(os.getpid)
    killed: list[int] = []

    def kill_a_worker(games: int) -> None:  # once a batch is back: a worker playing a batch is killed
        deadline = time.monotonic() + 2  # none may be busy at this very moment (the next batch not yet handed out)
        while games and not killed and time.monotonic() < deadline:
            busy = [address for address, keys in cluster.processing().items() if keys]
            if busy:
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(pids[busy[0]])
                return
            time.sleep(0.01)

    journal, kept = open_journal(tmp_path / "cluster.jsonl", identity, resume=False)
    spread = run_sweep(sweep, Workers(cluster.get_executor(), 2, "cluster"), journal, kept, kill_a_worker)
    journal.close()
    assert killed and spread.as_json() == alone.as_json()
    deadline = time.monotonic() + 30
    while len(cluster.nthreads()) < 2 and time.monotonic() < deadline:  # the nanny starts a new worker process
        time.sleep(0.1)
    assert killed[0] not in cluster.run(os.getpid).values()
    assert len((tmp_path / "cluster.jsonl").read_text().splitlines()) == 1 + 8


def test_a_scheduler_that_does_not_answer_is_one_line(monkeypatch, capsys, tmp_path: Path) -> None:
    import dask

    from cardgen.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["cardgen", "balance", "scifi-domains", "--scheduler", "tcp://127.0.0.1:9"])
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), pytest.raises(SystemExit) as stopped:
        main()
    err = capsys.readouterr().err.strip().splitlines()
    assert stopped.value.code == 2 and len(err) == 1
    assert err[0].startswith("cardgen: error: --scheduler tcp://127.0.0.1:9: no Dask scheduler answers there")
    assert not Path("output").exists()
