"""The helper thread that runs the main thread's engine calls, kept from call to call.

A call from the main thread runs on a helper thread so that the main thread stays free for
Ctrl-C (``tcosim._wait``). A new thread for each call cost more than a small scenario's whole run
(about 1.1 to 1.7 ms against 2.8 ms at 2 threads; docs/performance.md, "Python module"): OpenMP
keeps its team of worker threads per calling thread, so every call started the team again, and
the engine's per-thread buffers (a path's jobs, its sites) were allocated afresh. One helper kept
alive runs every call of the main thread in turn (they come one at a time: the main thread waits
for each), with the same team and buffers. It is a daemon thread: it never keeps the interpreter
from exiting. After a fork the child starts its own (the parent's is not copied).
"""

import os as _os
import queue as _queue
import threading as _threading

_lock = _threading.Lock()
_helper = None  # (thread, its queue of calls)


def _forget_after_fork():
    # The child has no helper thread, and the parent's lock may have been held at the fork.
    global _lock, _helper
    _lock = _threading.Lock()
    _helper = None


_os.register_at_fork(after_in_child=_forget_after_fork)


def run_into(call, box, done):
    """Runs call() on this thread: its result in box["value"], or what it raised in box["error"]
    (handed to the caller's thread); then sets done."""
    try:
        box["value"] = call()
    except BaseException as e:
        box["error"] = e
    finally:
        done.set()


def _serve(calls):
    while True:
        call, box, done = calls.get()
        run_into(call, box, done)
        # Nothing of this call stays with the waiting helper: the caller alone holds its result,
        # so a report the caller drops is freed (its per-path arrays can be large).
        del call, box, done


def submit(call):
    """Runs call() on the helper thread; returns (box, done): done is set once box holds
    "value" or "error"."""
    global _helper
    with _lock:
        if _helper is None or not _helper[0].is_alive():
            calls = _queue.SimpleQueue()
            thread = _threading.Thread(target=_serve, args=(calls,), name="tcosim-run", daemon=True)
            thread.start()
            _helper = (thread, calls)
    box = {}
    done = _threading.Event()
    _helper[1].put((call, box, done))
    return box, done
