"""Ctrl-C during a long run: the engine stops between paths, control returns within a second
as KeyboardInterrupt, and no thread is left behind."""
import os
import signal
import threading
import time

import pytest

from conftest import ROOT, TODAY


def test_sigint_stops_a_10000_path_run_within_a_second(tcosim):
    # A first run starts the main thread's helper (tcosim._runner), which stays for the next calls:
    # counted before, so that the interrupted run must leave exactly as many threads as it found.
    tcosim.run(ROOT / "scenarios" / "startup-monte-carlo.json", paths=2, threads=1, today=TODAY)
    threads_before = threading.active_count()
    sent = {}

    def interrupt():
        sent["at"] = time.perf_counter()
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(1.0, interrupt)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        tcosim.run(ROOT / "scenarios" / "startup-monte-carlo.json", paths=10000, threads=2, today=TODAY)
    returned = time.perf_counter()
    timer.join()
    assert "at" in sent, "the run ended before the signal: make it longer"
    assert returned - sent["at"] < 1.0
    assert threading.active_count() == threads_before


def test_a_run_after_an_interrupt_is_whole(tcosim):
    # The cancel flag belongs to the interrupted run only.
    r = tcosim.run(ROOT / "scenarios" / "startup-monte-carlo.json", paths=2, threads=1, today=TODAY)
    assert r.json["monte_carlo"]["paths"] == 2
