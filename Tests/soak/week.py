"""What `make soak-week` checks on top of the soak (soak.py --days): the soak's load and faults
under an accelerated wall clock (fakeclock.py), and what a week on screen must keep.

- the screen, read at known fake times (every few fake hours and just after each midnight):
  the masthead clock, the LISTEN card's ages ("started 2d ago") and the ACTIVITY// card's
  output count over the last hour, each against what the fake clock and the server's events
  say it should read;
- the caches on disk: file and write-ahead log together within the configured cap, sampled
  all along;
- retention: finished tasks quiet past `finished_task_days` have no events left in either
  cache; the cache's per-minute activity keeps 7 days and nothing older;
- the comparison with the server (soak.compare) allows what retention and the cap remove
  (`allowance`), and nothing else.

The dashboard's timers run on real time while its wall clock runs `speed` times as fast: what
it shows was right when it was drawn, up to a timer's real period ago. Each screen check allows
that lag, in fake seconds: the masthead clock ticks once a real minute, Home's lists are read
again (and the LISTEN card built with them) every 30 s of real time, and `r`, pressed before
each reading, reads the ACTIVITY// card at once.
"""

import bisect
import json
import os
import re
import time
from datetime import datetime, timezone

from cache_events import cached_tasks, read_db

FINAL = ("completed", "failed", "cancelled")
# shortAge's units (MakimaKit/Clock/AgeClock.swift): "12s", "4m", "3h", "2d".
AGE_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400}
ACTIVITY_DAYS = 7  # activity_minutes keeps this many days (CacheStore+Activity)
MASTHEAD_TICK = 60  # real seconds between the masthead clock's ticks
# Real seconds before the LISTEN card's ages are built again: Home's lists are read every 30 s
# of real time and the card is built with them; twice that for a slow answer.
AGES_TICK = 60
# Minutes either side of an hour the ACTIVITY// card may count: it counts whole minutes, and an
# event may be counted at its arrival, up to a few fake minutes after its `ts` at this speed.
ACTIVITY_MARGIN = 180


def fmt(t):
    return time.strftime("%a %H:%M", time.gmtime(t))


def parse_ts(s):
    """An event's `ts` (RFC 3339) as an aware UTC datetime; None when it is not a string."""
    if not isinstance(s, str):
        return None
    return datetime.fromisoformat(s.replace("Z", "+00:00").replace(" ", "T")).astimezone(timezone.utc)


def age_span(text):
    """The ages in seconds that shortAge writes as `text`: [low, high)."""
    m = re.fullmatch(r"(\d+)([smhd])", text)
    if not m:
        return None
    n, unit = int(m.group(1)), AGE_UNITS[m.group(2)]
    return n * unit, (n + 1) * unit if unit != 86_400 else float("inf")


class WeekChecks:
    def __init__(self, clock, days, failures, scratch, retention_days, max_mb, tasks_max_mb):
        self.clock = clock
        self.days = days
        self.failures = failures
        self.scratch = scratch
        self.retention_days = retention_days
        self.cap_bytes = (max_mb + tasks_max_mb) << 20
        self.settings = {"cache": {"max_mb": max_mb, "tasks_max_mb": tasks_max_mb,
                                   "finished_task_days": retention_days}}
        self.started = clock.now()
        self.end = self.started + days * 86_400
        self.checkpoints = self._checkpoints()
        self.disk_max = {}
        self.output_ts = []  # fake times of the server's output events, in event_id order
        self.output_bookmark = 0
        self.screens = {"clock": [0, 0], "ages": [0, 0], "activity": [0, 0]}  # [checked, failed]
        self.activity_rereads = 0
        self.after_midnight = [0, 0]  # readings within two fake hours after a midnight: [checked, wrong]

    # --- set-up ---------------------------------------------------------------------------

    def write_config(self, name):
        """The client's config file: only the cache settings (server and key come from the
        environment). The cap is small, so a week of load reaches it."""
        d = os.path.join(self.scratch, name, "config", "makima-tui")
        os.makedirs(d, mode=0o700, exist_ok=True)
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump({"settings": self.settings}, f)

    def _checkpoints(self):
        """Every few fake hours from the start, and ten fake minutes after each midnight."""
        span = self.end - self.started
        every = min(3 * 3600, span / 6)
        points = {self.started + every * k for k in range(1, int(span / every) + 1)}
        midnight = (int(self.started // 86_400) + 1) * 86_400
        while midnight + 600 < self.end:
            points.add(midnight + 600)
            midnight += 86_400
        return sorted(points)

    # --- during the run -------------------------------------------------------------------

    def sample_disk(self, cache_file):
        for name in ("watch", "dash"):
            path = cache_file(self.scratch, name)
            if not path:
                continue
            size = sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))
            self.disk_max[name] = max(self.disk_max.get(name, 0), size)

    def due(self):
        return bool(self.checkpoints) and self.clock.now() >= self.checkpoints[0]

    def check_screen(self, dash, server_db):
        """Reads the screen now and checks what it says against the fake clock and the server."""
        while self.checkpoints and self.clock.now() >= self.checkpoints[0]:
            self.checkpoints.pop(0)
        screen, pressed, now = self._read_screen(dash, server_db)
        if not screen.strip():
            return
        wrong_before = sum(w for _, w in self.screens.values())
        lines = screen.splitlines()
        self._check_clock(lines[0], now)
        self._check_ages(screen, now, server_db)
        # The card counts what has reached the cache: events still on their way (a cut
        # connection, a resync) count when they arrive, in their own minute, a few fake minutes
        # late at this speed. A reading out of bounds is taken again, twice at most.
        verdict = self._activity_verdict(screen, pressed, now)
        for _ in range(2):
            if verdict is None or verdict[0]:
                break
            self.activity_rereads += 1
            screen, pressed, now = self._read_screen(dash, server_db)
            verdict = self._activity_verdict(screen, pressed, now)
        if verdict:
            self._record("activity", *verdict)
        if now % 86_400 < 2 * 3600:
            self.after_midnight[0] += 1
            self.after_midnight[1] += sum(w for _, w in self.screens.values()) > wrong_before

    def _read_screen(self, dash, server_db):
        """The screen two seconds after `r`, which has Home read its lists and the activity
        counts again now (otherwise every 30 s of real time: two fake hours at 240x); also the
        fake times of the press and of the reading."""
        pressed = self.clock.now()
        dash.tmux("send-keys", "-t", "dash", "r", check=False)
        time.sleep(2)
        screen = dash.capture()
        now = self.clock.now()
        # The server's events up to now: the card may have counted any sent before it was read.
        self._read_output_events(server_db)
        return screen, pressed, now

    def _record(self, kind, ok, what):
        self.screens[kind][0] += 1
        if not ok:
            self.screens[kind][1] += 1
            # Only the first few failures of a kind are printed; the totals come at the end.
            if self.screens[kind][1] <= 3:
                print("FAIL - (screen) " + what, flush=True)

    def _check_clock(self, masthead, now):
        m = re.search(r"(\d\d):(\d\d)\s*$", masthead)
        lag = self.clock.speed * (MASTHEAD_TICK + 2) + self.clock.step()
        if not m:
            self._record("clock", False, f"no clock in the masthead at {fmt(now)}: {masthead.strip()!r}")
            return
        shown = int(m.group(1)) * 60 + int(m.group(2))
        ok = any(((int(t) // 60) % 1440) == shown for t in range(int(now - lag), int(now + self.clock.step()) + 60, 60))
        self._record("clock", ok, f"masthead clock {m.group(0).strip()} at fake {fmt(now)} (lag allowed "
                                  f"{lag / 60:.0f} min)")

    @staticmethod
    def _listen_started(sessions, title):
        """When the session the LISTEN row `title` names started: by its title (cut with … when
        long), or, for an untitled one, by the start the dashboard names it after ("session of
        2026-11-28 22:04", local time: UTC here)."""
        title = title.rstrip("…")
        m = re.fullmatch(r"session of (\d{4}-\d\d-\d\d \d\d:\d\d)", title)
        if m:
            named = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc).timestamp()
            return next((t for full, t in sessions if not full and 0 <= t - named < 60), None)
        return next((t for full, t in sessions if full and full.startswith(title)), None)

    def _check_ages(self, screen, now, server_db):
        sessions = read_db(server_db, "SELECT title, started_at FROM listen_sessions")
        lag = self.clock.speed * (AGES_TICK + 2) + self.clock.step()
        for title, shown in re.findall(r"┆ (\S.*?)\s+started (\S+) ago ┆", screen):
            at = self._listen_started(sessions, title)
            span = age_span(shown)
            if at is None or span is None:
                self._record("ages", False, f"LISTEN row {title!r} ({shown}) matches no session on the server")
                continue
            low, high = now - lag - at, now + self.clock.step() - at
            ok = span[0] < high and low < span[1]
            self._record("ages", ok, f"LISTEN {title!r} reads 'started {shown} ago' at fake {fmt(now)}; it "
                                     f"started {fmt(at)}, {(now - at) / 3600:.1f} h before (lag allowed "
                                     f"{lag / 60:.0f} min)")

    def _read_output_events(self, server_db):
        rows = read_db(server_db, "SELECT event_id, frame FROM events WHERE type = 'task.output' AND event_id > ? "
                                  "ORDER BY event_id", (self.output_bookmark,))
        for event_id, frame in rows:
            ts = parse_ts(json.loads(frame).get("ts"))
            if ts:
                self.output_ts.append(ts.timestamp())
            self.output_bookmark = event_id
        self.output_ts.sort()

    def _outputs_between(self, a, b):
        return bisect.bisect_right(self.output_ts, b) - bisect.bisect_right(self.output_ts, a)

    def _activity_verdict(self, screen, pressed, now):
        """(right, what) for the card's hour of output, read between `pressed` and `now`,
        against the server's output events of the hours ending in that span (give or take
        ACTIVITY_MARGIN); None when the card is not on screen (it takes only the room the data
        cards leave)."""
        m = re.search(r"(\d+) out · 1h", screen)
        if not m:
            return None
        shown = int(m.group(1))
        lows, highs = [], []
        t = pressed - self.clock.step()
        while t <= now + self.clock.step():
            lows.append(self._outputs_between(t - 3600 + ACTIVITY_MARGIN, t - ACTIVITY_MARGIN))
            highs.append(self._outputs_between(t - 3600 - ACTIVITY_MARGIN, t + ACTIVITY_MARGIN))
            t += 30
        low, high = min(lows), max(highs)
        return (low <= shown <= high,
                f"ACTIVITY// reads {shown} out · 1h at fake {fmt(now)}; the server sent {low}..{high} output events "
                f"in the hours ending {fmt(pressed)}..{fmt(now)}")

    # --- allowance for the comparison with the server --------------------------------------

    def allowance(self, server_db):
        """Tasks a cache may no longer hold (finished and quiet past the retention age, give or
        take the hour between age prunes), and that the cap may have trimmed any task's older
        events (down to its newest)."""
        cutoff = self.clock.now() - self.retention_days * 86_400 + 3600 + self.clock.step()
        gone = {t for (t,) in read_db(server_db, "SELECT id FROM tasks WHERE status IN (?,?,?) AND completed_at < ?",
                                      (*FINAL, cutoff))}
        return {"may_be_absent": gone, "trimmed": True}

    # --- at the end -----------------------------------------------------------------------

    def final(self, server_db, cache_file):
        f = self.failures
        for kind, label in (("clock", "the masthead clock"), ("ages", "the LISTEN card's ages"),
                            ("activity", "the ACTIVITY// card's hour of output")):
            checked, failed = self.screens[kind]
            f.check(checked > 0 and failed == 0, f"screen: {label} right at {checked} fake times ({failed} wrong)")
        midnights = int(self.end // 86_400) - int(self.started // 86_400)
        checked, wrong = self.after_midnight
        f.check(checked >= midnights and wrong == 0,
                f"screen: {checked} readings within two fake hours after one of the {midnights} midnights, "
                f"{wrong} with anything wrong")
        for name in ("watch", "dash"):
            used = self.disk_max.get(name, 0)
            f.check(0 < used <= self.cap_bytes,
                    f"{name}: cache on disk (file + wal) at most {used / 1048576:.1f} MB, cap "
                    f"{self.cap_bytes / 1048576:.0f} MB (max_mb + tasks_max_mb)")
        now = self.clock.now()
        # Pruned for age: finished during the run (seen live) before the cutoff, with an hour
        # between age prunes.
        cutoff = now - self.retention_days * 86_400 - 3600 - self.clock.step()
        finished = [t for (t,) in read_db(server_db, "SELECT id FROM tasks WHERE status IN (?,?,?) AND completed_at "
                                                     "BETWEEN ? AND ?", (*FINAL, self.started, cutoff))]
        for name in ("watch", "dash"):
            path = cache_file(self.scratch, name)
            if not path:
                f.check(False, f"{name}: no cache file")
                continue
            cached = cached_tasks(path)
            left = [t for t in finished if t in cached]
            f.check(bool(finished) and not left,
                    f"{name}: retention pruned the {len(finished)} tasks that finished during the run more than "
                    f"{self.retention_days:g} days (+1 h) before the end ({len(left)} left; {len(cached)} tasks "
                    f"cached)")
            self._check_activity_window(name, path, now)

    def _check_activity_window(self, name, path, now):
        (low, high, rows), = read_db(path, "SELECT min(minute), max(minute), count(*) FROM activity_minutes")
        if not rows:
            self.failures.check(False, f"{name}: no activity recorded")
            return
        oldest, newest = low * 60, high * 60
        span = (now - oldest) / 86_400
        ok = oldest >= now - ACTIVITY_DAYS * 86_400 - 3600 - self.clock.step() and newest <= now + 120
        if self.days >= ACTIVITY_DAYS + 0.5:
            ok = ok and span >= ACTIVITY_DAYS - 0.5
        self.failures.check(ok, f"{name}: activity per minute spans {span:.2f} days ({rows} minutes kept; the "
                                f"newest {fmt(newest)}, fake now {fmt(now)}); kept {ACTIVITY_DAYS} days, no more")

    def figures(self):
        return (f"fake clock: {fmt(self.started)} to {fmt(self.clock.now())} UTC ({self.days:g} days at "
                f"{self.clock.speed:g}x); {sum(c for c, _ in self.screens.values())} screen readings, "
                f"{self.activity_rereads} ACTIVITY// readings taken again; caches on "
                f"disk at most " + ", ".join(f"{k} {v / 1048576:.1f} MB" for k, v in sorted(self.disk_max.items())))
