"""Runs a Python command line as ``python`` would, and as it ends writes the process's own peak
RSS to a file descriptor the bench gave it: the peak RSS that ``bench_scale.py`` and
``pi_quota.py`` print for a command. Not a benchmark itself.

``python bench/_peak.py FD -m MODULE [ARG ...]`` runs *MODULE* as ``python -m MODULE [ARG ...]``
does (``runpy``, with ``sys.argv`` and ``sys.path[0]`` as ``-m`` sets them), and ``python
bench/_peak.py FD -c CODE [ARG ...]`` runs *CODE* as ``python -c`` does.

What is measured: ``VmHWM`` in ``/proc/self/status``, written to *FD* in KiB as one line: the
high-water mark of the resident memory of this process's address space, which ``exec`` made new,
so the interpreter's and the command's and nothing of the bench's. The ``ru_maxrss`` that
``os.wait4`` gives the parent is not that on Linux: ``exec`` keeps the high-water mark of the
address space the child had before it (a copy of the bench process after ``fork``, the bench's
own after ``vfork``, as ``subprocess`` uses), so every figure had the bench's size as a floor.

The figure is written when the interpreter exits (``atexit``): a return, ``sys.exit``, an
exception, and a SIGTERM or SIGINT that the command handles itself and then returns, as ``pegboard
serve`` and ``pegboard run`` do. A SIGTERM that meets this launcher's own handler (before the
command puts its own in place, or after it puts this one back) writes the figure, then ends the
process by SIGTERM, as it would have ended without the launcher.

Its cost, in the CPU that ``wait4`` gives the parent (user + system, the process's own): the
interpreter is the one ``python -m`` starts; on top come reading this file and its imports,
``atexit`` (built in) and ``signal`` (which the pegboard command line imports anyway), and
``runpy``, which ``python -m`` uses itself. Measured (medians of 40 interleaved runs, on a
2-core development machine): ``pegboard --version`` 58.2 ms directly, 59.8 ms under this
launcher, so about 1.5 ms a process, mostly compiling this file (0.55 ms) and ``signal``.

The bench's side: ``PeakPipe`` (the pipe, the command line, the figure once the process has
ended), and ``vm_hwm_kib`` for a process still running.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys


def vm_hwm_kib(pid: int | str = "self") -> int:
    """The peak resident memory (``VmHWM``, KiB) of process *pid*'s address space, since its
    ``exec``; for a process that is still running (a zombie has none).

    Raises:
        RuntimeError: ``/proc/PID/status`` has no ``VmHWM`` line (a kernel thread, a zombie).
    """
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError(f"/proc/{pid}/status has no VmHWM")


class PeakPipe:
    """The pipe that one command run under this launcher writes its peak RSS into.

    ``with PeakPipe() as peak``: start ``peak.argv(python, args)`` with ``pass_fds=(peak.fd,)``,
    call ``peak.started()`` once it has started (the bench's copy of the write end is closed, so
    the pipe ends when the command does), and ``peak.mib()`` once the process has ended.
    """

    def __init__(self) -> None:
        self._read, self.fd = os.pipe()
        self._open = [self._read, self.fd]

    def __enter__(self) -> PeakPipe:
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in self._open:
            os.close(fd)
        self._open.clear()

    def argv(self, python: str, args: list[str]) -> list[str]:
        """The command line that runs ``python ARGS`` (``-m MODULE ...`` or ``-c CODE ...``)
        under this launcher."""
        return [python, __file__, str(self.fd), *args]

    def started(self) -> None:
        os.close(self.fd)
        self._open.remove(self.fd)

    def mib(self) -> float:
        """The command's peak RSS (MiB), as it wrote it at its end.

        Raises:
            RuntimeError: it wrote none (it was killed by a signal other than SIGTERM, or ended
                before the launcher ran).
        """
        chunks = []
        while chunk := os.read(self._read, 64):
            chunks.append(chunk)
        text = b"".join(chunks).decode()
        if not text.strip().isdigit():
            raise RuntimeError(f"the command wrote no peak RSS (it wrote {text!r})")
        return int(text) / 1024


def _run(fd: int, how: str, what: str, args: list[str]) -> None:
    """Run ``python HOW WHAT ARGS`` in this process, writing the peak RSS to *fd* at its end."""
    os.set_inheritable(fd, False)  # not to a child of the command, which would hold the pipe
    written = False

    def write() -> None:
        nonlocal written
        if not written:
            written = True
            os.write(fd, b"%d\n" % vm_hwm_kib())
            os.close(fd)

    def on_sigterm(signum: int, frame: object) -> None:
        write()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    atexit.register(write)
    signal.signal(signal.SIGTERM, on_sigterm)
    if how == "-m":
        import runpy

        sys.argv = [what, *args]  # run_module puts the module's file in argv[0], as -m does
        sys.path[0] = os.getcwd()  # -m's, not this file's folder
        runpy.run_module(what, run_name="__main__", alter_sys=True)
    elif how == "-c":
        sys.argv = ["-c", *args]
        sys.path[0] = ""
        exec(compile(what, "<string>", "exec"), {"__name__": "__main__"})
    else:
        raise SystemExit(f"_peak: {how!r}: expected -m MODULE or -c CODE")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        raise SystemExit("usage: _peak.py FD -m MODULE [ARG ...] | FD -c CODE [ARG ...]")
    _run(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:])
