#!/usr/bin/env python3
"""Soak test: the headless engine (`makima-tui watch`) and the dashboard (in tmux) against the
dev server with a busy simulated mesh, for --minutes (default 30; `make test` runs 2.5).

Faults, on a schedule scaled to the length:
  - the WebSocket is cut (no close frame) every 20-90 s (20-45 s in runs under 10 minutes);
  - a burst of task output every ~40 s on top of the simulation;
  - one server restart (SIGTERM, same database and port) at 40 %;
  - at 80 %, once both clients have caught up: every request answers 401. `watch` must exit
    with the unauthorized code (4) and the dashboard must show the refused-key banner; then
    the key is accepted again: `watch` is started again, the dashboard recovers in place (`r` on
    the banner, the same process; see `recover_dashboard_in_place`).

Checks, printed with their figures at the end:
  - every task's events in each client's cache equal the server's (same seqs, ids, types,
    timestamps and payload), checked at 80 % and at the end; every task that had an event
    while a client ran is in its cache;
  - RSS flat, descriptor and thread counts back to their level after warm-up (sampled from
    /proc every few seconds for the client processes that ran 0-80 %);
  - the dashboard still redraws at the end: its clock shows the current minute, its pill is
    ONLINE, it is the process that ran before the 401, and Home's numbers changed during the
    last phase;
  - the API key appears in no output, log or screen.
Exit status 0 when every check passed.

With --days N (`make soak-week`) the same run goes under a wall clock --speed times as fast
(fakeclock.py) for N fake days, and week.py adds what a week on screen must keep.
"""

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from cache_events import cached_events, cached_tasks, read_db
from fakeclock import FakeClock, fake_start
from week import WeekChecks, parse_ts

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KEY = "mk_demo_local_key_0001"
UNAUTHORIZED_EXIT = 4
# The dashboard's 401 banner (LiveDashboard.refusedKey).
REFUSED_BANNER = "the server refused the API key"
# In that banner and in the one after a retry the server still refused ("still refused: …").
RETRY_HINT = "r retries it"
# The cache keeps this many newest events per task (CacheStore.eventsKeptPerTask).
EVENTS_KEPT_PER_TASK = 2000
# Added to the environment of every process the soak starts (the fake clock of --days).
EXTRA_ENV = {}


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


class Failures:
    def __init__(self):
        self.items = []
        self.figures = []

    def check(self, ok, what):
        print(("ok   - " if ok else "FAIL - ") + what, flush=True)
        if not ok:
            self.items.append(what)
        return ok

    def figure(self, text):
        self.figures.append(text)


# --- processes --------------------------------------------------------------------------------

class DevServer:
    def __init__(self, scratch, rate):
        self.scratch = scratch
        self.rate = rate
        self.db = os.path.join(scratch, "server.db")
        self.log_path = os.path.join(scratch, "server.log")
        self.proc = None
        self.port = 0
        self.url = None

    def start(self):
        deadline = time.time() + 60
        while time.time() < deadline:
            ready = os.path.join(self.scratch, "ready.txt")
            with open(ready, "w") as out, open(self.log_path, "a") as err:
                self.proc = subprocess.Popen(
                    [sys.executable, "devserver/server.py", "--host", "127.0.0.1", "--port", str(self.port),
                     "--db", self.db, "--seed", "7", "--rate", str(self.rate), "--demo-key", KEY,
                     "--test-controls", "--quiet"],
                    cwd=ROOT, stdout=out, stderr=err, env=dict(os.environ, **EXTRA_ENV))
            start = time.time()
            while time.time() - start < 30:
                line = open(ready).read().strip()
                if line.startswith("READY "):
                    self.url = line[len("READY "):]
                    self.port = int(self.url.rsplit(":", 1)[1])
                    return
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
            # The port of the first run may have been taken meanwhile: try again shortly.
            self.stop()
            time.sleep(1)
        raise RuntimeError("the dev server did not start; see " + self.log_path)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def dev(self, method, path):
        req = urllib.request.Request(self.url + path, method=method)
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read() or b"null")


def client_env(scratch, name, url):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKIMA_") and k not in ("LC_ALL",)}
    env.update({
        "LANG": "C.UTF-8", "XDG_CONFIG_HOME": os.path.join(scratch, name, "config"),
        "XDG_CACHE_HOME": os.path.join(scratch, name, "cache"), "MAKIMA_SERVER_URL": url, "MAKIMA_API_KEY": KEY,
        "http_proxy": "", "https_proxy": "", "HTTP_PROXY": "", "HTTPS_PROXY": "",
    })
    env.update(EXTRA_ENV)
    return env


class Watch:
    """`makima-tui watch`, its output kept in the scratch directory."""

    def __init__(self, binary, scratch, url, generation):
        self.out_path = os.path.join(scratch, f"watch{generation}.out")
        self.err_path = os.path.join(scratch, f"watch{generation}.err")
        with open(self.out_path, "w") as out, open(self.err_path, "w") as err:
            # Under the fake clock through env(1), which execs the binary in place (same pid): a
            # Swift binary started by Python's spawn with libfaketime preloaded sees no arguments.
            argv = (["env"] if EXTRA_ENV else []) + [binary, "watch"]
            self.proc = subprocess.Popen(argv, env=client_env(scratch, "watch", url), stdout=out,
                                         stderr=err, cwd=scratch)
        self.pid = self.proc.pid
        self.started = time.time()


class Dashboard:
    """The dashboard in a tmux session of its own (per-run socket), 120x40."""

    def __init__(self, binary, scratch, url):
        self.binary = binary
        self.scratch = scratch
        self.url = url
        self.socket = f"makima-soak-{os.getpid()}"
        self.screens = os.path.join(scratch, "screens.txt")
        self.started = time.time()

    def tmux(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True,
                              check=check)

    def command(self):
        env = client_env(self.scratch, "dash", self.url)
        pairs = " ".join(f"{k}={v}" for k, v in env.items()
                         if k.startswith(("XDG_", "MAKIMA_")) or k in ("LANG", "PATH", "HOME") or k in EXTRA_ENV)
        return (f"env -i TERM=tmux-256color {pairs} bash --norc --noprofile -c "
                f"'{self.binary}; echo EXITED:$?; sleep 3600'")

    def start(self):
        self.tmux("new-session", "-d", "-s", "dash", "-x", "120", "-y", "40", self.command())
        self.started = time.time()

    def capture(self):
        r = self.tmux("capture-pane", "-p", "-t", "dash", check=False)
        with open(self.screens, "a") as f:
            f.write(r.stdout)
        return r.stdout

    def wait_for(self, text, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if text in self.capture():
                return True
            time.sleep(0.5)
        return False

    def pid(self):
        """The makima-tui process: the child of the pane's shell."""
        r = self.tmux("list-panes", "-t", "dash", "-F", "#{pane_pid}", check=False)
        try:
            shell = int(r.stdout.split()[0])
        except (ValueError, IndexError):
            return None
        # /proc/PID/task/PID/children is not on every kernel: scan for the shell's child.
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            comm = stat[stat.index("(") + 1:stat.rindex(")")]
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            # comm is the binary's name cut to 15 bytes (--bin may name a copy of it).
            if ppid == shell and comm == os.path.basename(self.binary)[:15]:
                return int(entry)
        return None

    def kill(self):
        self.tmux("kill-server", check=False)


# --- /proc sampling ---------------------------------------------------------------------------

def sample(pid):
    """(rss_kb, fds, threads) of a live process, else None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            status = dict(line.split(":", 1) for line in f if ":" in line)
        rss = int(status["VmRSS"].split()[0])
        threads = int(status["Threads"].split()[0])
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        return rss, fds, threads
    except (OSError, KeyError, ValueError):
        return None


class Samples:
    def __init__(self, name):
        self.name = name
        self.rows = []  # (time, rss_kb, fds, threads)

    def add(self, pid):
        s = sample(pid) if pid else None
        if s:
            self.rows.append((time.time(), *s))

    def window(self, start_frac, end_frac):
        if not self.rows:
            return []
        t0, t1 = self.rows[0][0], self.rows[-1][0]
        a, b = t0 + (t1 - t0) * start_frac, t0 + (t1 - t0) * end_frac
        return [r for r in self.rows if a <= r[0] <= b]

    def judge(self, failures, settled):
        """Baseline: samples after warm-up, before the server restart (20-38 % of the run); its
        median, since a sample taken while a connection is down counts fewer descriptors. End:
        the last 15 %, and the settled sample taken once the client had caught up."""
        base = self.window(0.20, 0.38)
        tail = self.window(0.85, 1.0)
        if len(base) < 3 or len(tail) < 3 or not settled:
            failures.check(False, f"{self.name}: too few /proc samples ({len(self.rows)})")
            return
        rss_base = statistics.median(r[1] for r in base)
        rss_end = statistics.median(r[1] for r in tail)
        growth = rss_end - rss_base
        minutes = (self.rows[-1][0] - self.rows[0][0]) / 60
        peak = max(r[1] for r in self.rows)
        # A slope over the measured part, so a slow leak shows even under the threshold.
        pts = [r for r in self.rows if r[0] >= base[0][0]]
        xs = [(r[0] - pts[0][0]) / 60 for r in pts]
        ys = [r[1] for r in pts]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        var = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var if var else 0.0
        allowed = max(8 * 1024, 0.15 * rss_base)
        failures.check(growth <= allowed,
                       f"{self.name}: RSS flat (after warm-up {rss_base / 1024:.1f} MB, at the end "
                       f"{rss_end / 1024:.1f} MB, growth {growth / 1024:+.1f} MB, allowed {allowed / 1024:.1f})")
        fd_base = statistics.median_low(r[2] for r in base)
        th_base = statistics.median_low(r[3] for r in base)
        fd_end, th_end = settled[1], settled[2]
        failures.check(fd_end <= fd_base + 2,
                       f"{self.name}: no descriptor leak (after warm-up {fd_base}, settled at the end {fd_end})")
        failures.check(th_end <= th_base + 2,
                       f"{self.name}: no thread leak (after warm-up {th_base}, settled at the end {th_end})")
        failures.figure(
            f"{self.name}: {len(self.rows)} samples over {minutes:.1f} min; RSS {rss_base / 1024:.1f} -> "
            f"{rss_end / 1024:.1f} MB (peak {peak / 1024:.1f}, slope {slope / 1024:+.2f} MB/min); descriptors "
            f"{fd_base} -> {fd_end} (max {max(r[2] for r in self.rows)}); threads {th_base} -> {th_end} "
            f"(max {max(r[3] for r in self.rows)})")


def settled_sample(pid, seconds=6):
    """The smallest counts over a few quiet seconds: short-lived fetch threads come and go."""
    best = None
    end = time.time() + seconds
    while time.time() < end:
        s = sample(pid)
        if s and (best is None or (s[1], s[2]) < (best[1], best[2])):
            best = s
        time.sleep(0.5)
    return best


# --- cache versus server ----------------------------------------------------------------------

def cache_file(scratch, name):
    root = os.path.join(scratch, name, "cache", "makima-tui")
    for dirpath, _, files in os.walk(root):
        if "cache.sqlite" in files:
            return os.path.join(dirpath, "cache.sqlite")
    return None


def plain(s):
    """Text the sanitiser leaves as it is: no controls but newline, no tab, no bidi marks."""
    return not any((ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F or ord(c) in
                   (0x200E, 0x200F, 0x061C, 0xFEFF) or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069
                   for c in s)


def event_differences(server_frame, client_json):
    s = json.loads(server_frame)
    c = json.loads(client_json)
    diffs = []
    for k in ("event_id", "task_id", "seq", "type"):
        if s.get(k) != c.get(k):
            diffs.append(f"{k} {s.get(k)!r} != {c.get(k)!r}")
    st, ct = parse_ts(s.get("ts")), parse_ts(c.get("ts"))
    if st and (not ct or abs((st - ct).total_seconds()) > 0.001):
        diffs.append(f"ts {s.get('ts')} != {c.get('ts')}")
    sd, cd = s.get("data") or {}, c.get("data") or {}
    compared = skipped = 0
    for k, v in sd.items():
        if isinstance(v, bool) or (isinstance(v, str) and plain(v)):
            compared += 1
            if cd.get(k) != v:
                diffs.append(f"data.{k} differs")
        elif isinstance(v, str):
            skipped += 1  # carries escapes the sanitiser removes by design
    return diffs, compared, skipped


class Comparison:
    def __init__(self, name):
        self.name = name
        self.tasks = self.events = self.fields = self.skipped = 0
        self.lagging = []
        self.missing = []
        self.wrong = []


def server_target(server_db, required_since_event_id):
    """What the server holds now: each task's last seq, and the tasks with events since
    `required_since_event_id`. A check waits for the clients to reach this, not a target that
    moves on while the simulation goes on streaming (a client a batch behind at every look
    would never be seen caught up, on a loaded machine for a minute on end)."""
    server_last = dict(read_db(server_db, "SELECT task_id, max(seq) FROM events GROUP BY task_id"))
    required = {t for (t,) in read_db(server_db, "SELECT DISTINCT task_id FROM events WHERE event_id >= ?",
                                      (required_since_event_id,))}
    return server_last, required


def compare(server_db, client_db, name, required_since_event_id, allowance=None, target=None):
    """Every task in the client's cache against the server's events of that task, up to what
    the server held when the comparison began (`target`, from `server_target`; read now when
    not given). `allowance` (the --days run) names the tasks the cache's retention may have
    removed and says its cap may have trimmed older events."""
    allowance = allowance or {"may_be_absent": set(), "trimmed": False}
    result = Comparison(name)
    if not client_db or not os.path.exists(client_db):
        result.wrong.append("no cache file")
        return result
    server_last, required = target or server_target(server_db, required_since_event_id)
    client_tasks = cached_tasks(client_db)
    result.missing = sorted(t for t in required - client_tasks - allowance["may_be_absent"] if not t.startswith("_dev"))
    born_since = None
    for task in sorted(client_tasks):
        last = server_last.get(task)
        if last is None:
            # A task the server began after the target was taken is not judged yet.
            if born_since is None:
                born_since = dict(read_db(server_db, "SELECT task_id, max(seq) FROM events GROUP BY task_id"))
            if task not in born_since:
                result.wrong.append(f"{task}: in the cache, unknown to the server")
            continue
        rows = cached_events(client_db, task, last, EVENTS_KEPT_PER_TASK)
        seqs = [r[0] for r in rows]
        low = max(1, last - EVENTS_KEPT_PER_TASK + 1)
        if not seqs or seqs[-1] < last:
            result.lagging.append(f"{task} (cache up to {seqs[-1] if seqs else 0}, server {last})")
            continue
        if seqs != list(range(seqs[0], last + 1)) or (seqs[0] > low and not allowance["trimmed"]):
            result.wrong.append(f"{task}: seqs {seqs[0]}..{seqs[-1]} not contiguous from {low} ({len(seqs)} rows)")
            continue
        server_rows = dict(read_db(server_db, "SELECT seq, frame FROM events WHERE task_id = ? AND seq >= ? AND "
                                   "seq <= ?", (task, seqs[0], last)))
        result.tasks += 1
        for seq, cj in rows:
            diffs, compared, skipped = event_differences(server_rows[seq], cj)
            result.events += 1
            result.fields += compared
            result.skipped += skipped
            if diffs:
                result.wrong.append(f"{task} seq {seq}: " + "; ".join(diffs))
    return result


def converge(server, scratch, name, since, timeout, failures, label, week=None):
    deadline = time.time() + timeout
    started = time.time()
    target = server_target(server.db, since)
    while True:
        r = compare(server.db, cache_file(scratch, name), name, since, week.allowance(server.db) if week else None,
                    target)
        done = not r.lagging and not r.missing
        if (done and not r.wrong) or time.time() > deadline:
            break
        time.sleep(1)
    took = time.time() - started
    ok = failures.check(done and not r.wrong,
                        f"{label}: {name}'s cache equals the server's events ({r.tasks} tasks, {r.events} events, "
                        f"{r.fields} payload fields compared, {r.skipped} escaped texts only counted; "
                        f"caught up in {took:.1f} s)")
    if not ok:
        for what, items in (("lagging", r.lagging), ("missing", r.missing), ("wrong", r.wrong)):
            for item in items[:10]:
                print(f"       {what}: {item}")
    failures.figure(f"{label} {name}: {r.tasks} tasks / {r.events} events equal to the server's, "
                    f"caught up {took:.1f} s after the check began")
    return ok


def next_event_id(server):
    return int(server.dev("GET", "/_dev/seeded")["next_event_id"])


def clients_online_event_id(server, grace=3):
    """The next event id a few seconds after the dashboard is ONLINE (watch started first)."""
    time.sleep(grace)
    return next_event_id(server)


# --- the run ----------------------------------------------------------------------------------

def recover_dashboard_in_place(dash, failures):
    """The key is accepted again: `r` on the refused-key banner asks the server once more and the
    running dashboard resumes (a new engine: polling, WebSocket, resync from its cache), with no
    restart. `r` is pressed again every 10 s while a banner still offers it (the server's answer
    to a press can be slow under load, or a press can land before the key is accepted again).
    Returns the seconds it took to come back ONLINE with the banner gone, or None."""
    started = time.time()
    deadline = started + 90
    next_press = started
    presses = 0
    while time.time() < deadline:
        screen = dash.capture()
        if REFUSED_BANNER not in screen and RETRY_HINT not in screen and "WS//ONLINE" in screen:
            failures.figure(f"401 recovery in place: ONLINE {time.time() - started:.1f} s after the key was "
                            f"accepted again ({presses} press(es) of r, no restart)")
            return time.time() - started
        if RETRY_HINT in screen and time.time() >= next_press:
            dash.tmux("send-keys", "-t", "dash", "r", check=False)
            presses += 1
            next_press = time.time() + 10
        time.sleep(0.5)
    return None


def home_numbers(screen):
    """The Home body without the masthead line (whose clock changes every minute)."""
    return "\n".join(screen.splitlines()[1:])


def run(args):
    failures = Failures()
    binary = os.path.abspath(args.bin)
    scratch = tempfile.mkdtemp(prefix="makima-soak.")
    total = args.minutes * 60
    short = args.minutes < 10
    drop_gap = (20, 45) if short else (20, 90)
    rng = random.Random(args.seed)
    server = DevServer(scratch, args.rate)
    watch = dash = None
    counts = {"drops": 0, "bursts": 0, "burst_events": 0, "restarts": 0}
    watch_samples = Samples("watch")
    dash_samples = Samples("dashboard")
    screens_changed = 0
    clock = week = None
    try:
        if args.days:
            clock, week = start_week(args, scratch, failures)
        server.start()
        log(f"dev server {server.url}, rate {args.rate}/s; soak of {args.minutes:g} min, scratch {scratch}")
        watch = Watch(binary, scratch, server.url, 1)
        dash = Dashboard(binary, scratch, server.url)
        dash.start()
        failures.check(dash.wait_for("WS//ONLINE", 60), "the dashboard goes ONLINE")
        # Tasks with an event from here on must reach both caches. (A task whose every event
        # came before a client first connected is not replayed to it: resync names known tasks.)
        first_event = clients_online_event_id(server)
        start = time.time()
        next_drop = start + rng.uniform(*drop_gap)
        next_burst = start + 15
        next_sample = start
        restart_at = start + 0.4 * total
        auth_at = start + 0.8 * total
        restarted = auth_done = False
        last_home = None
        last_screen = ""
        phase_c_changes = 0
        end_at = start + total
        while time.time() < end_at:
            now = time.time()
            if now >= next_sample:
                watch_samples.add(watch.pid if not auth_done else None)
                dash_samples.add(dash.pid() if not auth_done else None)
                last_screen = dash.capture()
                home = home_numbers(last_screen)
                if last_home is not None and home != last_home:
                    screens_changed += 1
                    if auth_done:
                        phase_c_changes += 1
                last_home = home
                next_sample = now + (2 if short else 5)
                if week:
                    week.sample_disk(cache_file)
                    if week.due():
                        week.check_screen(dash, server.db)
            if watch.proc.poll() is not None:
                failures.check(False, f"watch exited unexpectedly with {watch.proc.returncode}")
                break
            if now >= next_drop:
                server.dev("POST", "/_dev/drop_ws")
                counts["drops"] += 1
                next_drop = now + rng.uniform(*drop_gap)
            if now >= next_burst:
                r = server.dev("POST", f"/_dev/burst?count={rng.randint(50, 400)}")
                counts["bursts"] += 1
                counts["burst_events"] += int(r["count"])
                next_burst = now + rng.uniform(25, 55)
            if not restarted and now >= restart_at:
                log("restarting the dev server (same database and port)")
                server.stop()
                time.sleep(1)
                server.start()
                counts["restarts"] += 1
                restarted = True
                failures.check(dash.wait_for("WS//ONLINE", 90), "after the server restart the dashboard is ONLINE")
            if not auth_done and now >= auth_at:
                auth_done = True
                dash_settled_before = checkpoint_before_401(args, failures, server, scratch, first_event, watch, dash,
                                                            watch_samples, dash_samples, week)
                log("401: every request refused")
                server.dev("POST", "/_dev/unauthorized?on=true")
                server.dev("POST", "/_dev/drop_ws")
                try:
                    code = watch.proc.wait(timeout=90)
                except subprocess.TimeoutExpired:
                    code = None
                failures.check(code == UNAUTHORIZED_EXIT, f"watch stops on the 401 with exit code 4 (got {code})")
                failures.check(dash.wait_for(REFUSED_BANNER, 90), "the dashboard shows the refused-key banner")
                server.dev("POST", "/_dev/unauthorized?on=false")
                log("the key is accepted again: watch restarted, r on the dashboard's banner")
                watch = Watch(binary, scratch, server.url, 2)
                dash_pid_before = dash.pid()
                took = recover_dashboard_in_place(dash, failures)
                failures.check(took is not None, "after the 401, r brings the dashboard back ONLINE in place "
                                                 "(banner gone" + (f", {took:.1f} s)" if took is not None else ")"))
                dash_pid_after = dash.pid()
                failures.check(dash_pid_before is not None and dash_pid_after == dash_pid_before,
                               f"the dashboard was not restarted (pid {dash_pid_before} before the 401, "
                               f"{dash_pid_after} after the recovery)")
                second_since = clients_online_event_id(server)
                # The last phase runs at least a fifth of the soak, however long the checks took.
                end_at = max(end_at, time.time() + 0.2 * total)
            time.sleep(0.5)

        elapsed = time.time() - start
        log(f"load over after {elapsed / 60:.1f} min; final checks")
        if auth_done:
            converge(server, scratch, "watch", second_since, args.settle, failures, "end", week)
            converge(server, scratch, "dash", second_since, args.settle, failures, "end", week)
            screen = dash.capture()
            if week:
                week.sample_disk(cache_file)
                week.check_screen(dash, server.db)
                week.final(server.db, cache_file)
            else:
                clock_now = {time.strftime("%H:%M", time.localtime(t)) for t in (time.time() - 60, time.time())}
                failures.check(any(c in screen.splitlines()[0] for c in clock_now) if screen else False,
                               f"the dashboard still redraws: its clock shows the current minute ({sorted(clock_now)})")
            failures.check("WS//ONLINE" in screen, "the dashboard's pill is ONLINE at the end")
            failures.check(dash.pid() == dash_pid_before, "the dashboard at the end is the one that ran before the 401")
            # The recovery retired an engine and started another: nothing of the old one is left.
            after = settled_sample(dash_pid_before) if dash_pid_before else None
            if dash_settled_before and after:
                failures.check(after[1] <= dash_settled_before[1] + 2 and after[2] <= dash_settled_before[2] + 2,
                               f"dashboard: the recovery in place leaves no descriptor or thread behind (settled "
                               f"before the 401 {dash_settled_before[1]} fds / {dash_settled_before[2]} threads, at "
                               f"the end {after[1]} / {after[2]})")
            else:
                failures.check(False, "dashboard: no settled /proc sample before the 401 or at the end")
            failures.check(phase_c_changes >= 1,
                           f"Home's numbers changed after the 401 recovery ({phase_c_changes} changes seen)")
            watch.proc.send_signal(signal.SIGTERM)
            try:
                code = watch.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                code = None
            failures.check(code == 0, f"watch stops cleanly on SIGTERM (exit {code})")
        else:
            failures.check(False, "the soak ended before the 401 phase")

        outputs = [os.path.join(scratch, f) for f in os.listdir(scratch) if f.endswith((".out", ".err", ".txt", ".log"))]
        leaked = [os.path.basename(p) for p in outputs if KEY in open(p, errors="replace").read()]
        failures.check(not leaked, f"the API key appears in no output, log or screen ({len(outputs)} files; "
                                   f"found in: {', '.join(leaked) or 'none'})")
        problems = [line.strip() for p in (os.path.join(scratch, "watch1.err"), os.path.join(scratch, "watch2.err"))
                    if os.path.exists(p) for line in open(p, errors="replace")]
        seeded = server.dev("GET", "/_dev/seeded")
        failures.figure(f"load: {elapsed / 60:.1f} min, {seeded['events']} server events in all "
                        f"({seeded['next_event_id'] - first_event} during the soak: simulation at {args.rate}/s plus "
                        f"{counts['bursts']} bursts of {counts['burst_events']} events), {seeded['tasks']} tasks; "
                        f"{counts['drops']} WebSocket drops, {counts['restarts']} server restart, one 401; "
                        f"Home redrawn with new numbers {screens_changed} times; "
                        f"{len(problems)} lines on watch's stderr")
        if week:
            failures.figure(week.figures())
    finally:
        if watch and watch.proc.poll() is None:
            watch.proc.kill()
        if dash:
            dash.kill()
        server.stop()
        if clock:
            clock.stop()
        if args.keep:
            print(f"scratch kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)

    print("== soak figures")
    for f in failures.figures:
        print("   " + f)
    print(f"{'FAILED: ' + str(len(failures.items)) + ' check(s)' if failures.items else 'soak passed'}")
    return 1 if failures.items else 0


def checkpoint_before_401(args, failures, server, scratch, first_event, watch, dash, watch_samples, dash_samples,
                          week):
    """Before the 401: both clients caught up, equal to the server, and their /proc figures."""
    converge(server, scratch, "watch", first_event, args.settle, failures, "at 80 %", week)
    converge(server, scratch, "dash", first_event, args.settle, failures, "at 80 %", week)
    watch_samples.judge(failures, settled_sample(watch.pid))
    pid = dash.pid()
    settled = settled_sample(pid) if pid else None
    dash_samples.judge(failures, settled)
    return settled


def start_week(args, scratch, failures):
    """The fake clock every process reads (fakeclock.py), the clients' cache settings and the
    week's checks (week.py)."""
    clock = FakeClock(scratch, args.speed, fake_start(time.time()))
    EXTRA_ENV.update(clock.env())
    # Half the run (at most the standard 7 days), so retention prunes tasks within it.
    retention_days = min(7, args.days / 2)
    week = WeekChecks(clock, args.days, failures, scratch, retention_days, max_mb=4, tasks_max_mb=2)
    for name in ("watch", "dash"):
        week.write_config(name)
    log(f"fake clock from {time.strftime('%Y-%m-%d %H:%M', time.gmtime(clock.now()))} UTC at {args.speed:g}x: "
        f"{args.days:g} days in {args.minutes:.1f} min; finished tasks kept {retention_days:g} days, cache cap "
        f"4 + 2 MB")
    return clock, week


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minutes", type=float, default=float(os.environ.get("SOAK_MINUTES", 30)))
    p.add_argument("--rate", type=float, default=6, help="simulated steps per second (default 6)")
    p.add_argument("--bin", default=os.environ.get("MAKIMA_BIN", os.path.join(ROOT, ".build/debug/makima-tui")))
    p.add_argument("--seed", type=int, default=int(time.time()), help="seed of the fault schedule")
    p.add_argument("--settle", type=float, default=90, help="seconds a client may take to catch up")
    p.add_argument("--keep", action="store_true", help="keep the scratch directory")
    p.add_argument("--days", type=float, default=0,
                   help="fake days under an accelerated wall clock (make soak-week); sets the length")
    p.add_argument("--speed", type=float, default=240, help="how much faster the fake clock runs (with --days)")
    args = p.parse_args()
    if args.days:
        args.minutes = args.days * 1440 / args.speed
    os.chdir(ROOT)
    print(f"soak: schedule seed {args.seed}")
    sys.exit(run(args))


if __name__ == "__main__":
    main()
