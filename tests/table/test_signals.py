"""SIGTERM and SIGINT are taken on a thread of their own (``table.signals``): a signal that
comes while the main thread holds the lock the stop needs is taken once it lets go, instead of
hanging the process (a handler that put on the loop's queue waited for the queue's lock, held
by the very thread it had interrupted: 1 stop in 40 hung on a loaded machine)."""

from __future__ import annotations

import os
import queue
import signal
import threading
import time

import pytest

from pegboard.table.signals import SignalWatch


@pytest.mark.timeout(120)  # a hang guard: the old handler never came back from here
def test_a_signal_while_the_main_thread_holds_the_queue_s_lock_is_taken_when_it_lets_go() -> None:
    events: queue.Queue[str] = queue.Queue()
    with SignalWatch(events.put, signals=(signal.SIGUSR1,)):
        with events.mutex:  # where the daemon's loop is, inside events.get, 20 times a second
            os.kill(os.getpid(), signal.SIGUSR1)
            time.sleep(0.2)  # the handler has run: it wrote to the pipe and came back
        assert events.get(timeout=60) == "SIGUSR1"


@pytest.mark.timeout(120)
def test_a_signal_while_the_main_thread_is_inside_the_stop_events_lock_sets_it() -> None:
    stop = threading.Event()
    with SignalWatch(lambda name: stop.set(), signals=(signal.SIGUSR1,)):
        with stop._cond:  # where pegboard serve is, inside stop.wait
            os.kill(os.getpid(), signal.SIGUSR1)
            time.sleep(0.2)
        assert stop.wait(60)


def test_close_puts_the_old_handler_back_and_ends_the_thread() -> None:
    before = signal.getsignal(signal.SIGUSR1)
    watch = SignalWatch(lambda name: None, signals=(signal.SIGUSR1,)).install()
    assert signal.getsignal(signal.SIGUSR1) is not before
    watch.close()
    watch.close()  # again: nothing to do
    assert signal.getsignal(signal.SIGUSR1) is before
    assert not any(t.name == "signals" and t.is_alive() for t in threading.enumerate())


def test_each_signal_is_named_to_the_callback() -> None:
    got: queue.Queue[str] = queue.Queue()
    with SignalWatch(got.put, signals=(signal.SIGUSR1, signal.SIGUSR2)):
        os.kill(os.getpid(), signal.SIGUSR2)
        os.kill(os.getpid(), signal.SIGUSR1)
        assert {got.get(timeout=60), got.get(timeout=60)} == {"SIGUSR1", "SIGUSR2"}
