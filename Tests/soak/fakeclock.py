"""The accelerated wall clock of `make soak-week`: every process of the soak (the dev server,
`watch`, the dashboard) reads one fake wall clock, `speed` times as fast as the real one.

It is Debian's libfaketime, preloaded, in its offset-file mode: the harness rewrites the offset
(`+Ns`) in one file twenty times a second, and every process reads it on each clock call
(FAKETIME_NO_CACHE), so all of them see the same time, however late each was started. The
speed-up mode of libfaketime (`x240`) is not used: it also divides every sleep, poll and
select timeout by the speed, so the network timeouts of the clients (and their redraw timers)
would run 240 times short and a busy loopback would look dead. Here the wall clock
(CLOCK_REALTIME: `Date()`, `time.time()`, gettimeofday, time) runs fast while CLOCK_MONOTONIC
and every timeout stay real (FAKETIME_DONT_FAKE_MONOTONIC): the dashboard's timers (its
masthead clock once a minute, its age redraws, its polls) fire on real time, so what it shows
may be up to `speed` times a timer's real period behind the fake clock; the checks allow that
(`lag`). File times stay real (NO_FAKE_STAT).

One caveat of libfaketime 0.9.10 with FAKETIME_DONT_FAKE_MONOTONIC: clock_nanosleep on the
monotonic clock with an absolute deadline fails with EINVAL (Python's time.sleep does that);
nothing under the fake clock here calls it.
"""

import os
import threading
import time

LIBRARY_DIRS = ("/usr/lib/x86_64-linux-gnu/faketime", "/usr/lib/aarch64-linux-gnu/faketime", "/usr/lib/faketime",
                "/usr/local/lib/faketime")


def library():
    """The path of libfaketime.so.1, or None when the faketime package is not installed."""
    for d in LIBRARY_DIRS:
        path = os.path.join(d, "libfaketime.so.1")
        if os.path.exists(path):
            return path
    return None


class FakeClock:
    """Fake time = `start` + `speed` x (real time since the clock was made)."""

    WRITE_EVERY = 0.05

    def __init__(self, scratch, speed, start):
        self.lib = library()
        if not self.lib:
            raise RuntimeError("libfaketime is not installed (Debian package faketime; make setup installs it)")
        self.speed = float(speed)
        self.real0 = time.time()
        self.fake0 = float(start)
        self.path = os.path.join(scratch, "faketime.rc")
        self._stop = threading.Event()
        self._write()
        self._thread = threading.Thread(target=self._run, name="fakeclock", daemon=True)
        self._thread.start()

    def offset(self, real=None):
        real = time.time() if real is None else real
        return self.fake0 - self.real0 + (self.speed - 1) * (real - self.real0)

    def now(self):
        """The fake time now (what the processes read, within one write's step)."""
        real = time.time()
        return real + self.offset(real)

    def step(self):
        """How far the processes' clock may be behind `now()`: one write's worth, and a second."""
        return self.speed * self.WRITE_EVERY + 1

    def env(self):
        return {"LD_PRELOAD": self.lib, "FAKETIME_TIMESTAMP_FILE": self.path, "FAKETIME_NO_CACHE": "1",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1", "NO_FAKE_STAT": "1", "TZ": "UTC"}

    def _write(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"+{int(self.offset())}s\n")
        os.replace(tmp, self.path)

    def _run(self):
        while not self._stop.wait(self.WRITE_EVERY):
            self._write()

    def stop(self):
        self._stop.set()
        self._thread.join(timeout=5)


def fake_start(real_now):
    """22:00 UTC of the day after tomorrow: the first midnight comes two fake hours in, and the
    fake clock is ahead of the real one (file times and the cache's seal stay in the past)."""
    day = int(real_now // 86_400) * 86_400
    return day + 2 * 86_400 + 22 * 3600
