"""What the dev server tests share: a server process of their own (forked from a process that
imported the server once, or the real command line), an API client, a WebSocket client that
sees frames exactly as sent, and readers for events and timestamps.

Every wait is bounded: a server that never answers fails the test, it never hangs it."""
from __future__ import annotations

import asyncio
import base64
import ctypes
import email.utils
import json
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import re
import signal
import struct
import subprocess
import sys
import time
from datetime import datetime

import aiohttp

TESTS = os.path.dirname(os.path.abspath(__file__))
DEVSERVER = os.path.dirname(TESTS)
SERVER = os.path.join(DEVSERVER, "server.py")
sys.path.insert(0, DEVSERVER)

import server  # noqa: E402  (the server's modules, imported once and shared by every fork)

KEY = "mk_demo_local_key_0001"
SEED = 7
# What most tests run: no autonomous simulation (every event is one a test asked for) and the
# test controls.
DEFAULT_FLAGS = ("--rate", "0", "--test-controls")
READY = re.compile(r"READY (http://127\.0\.0\.1:(\d+))\n")
RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
TIME_KEYS = {"ts", "last_heartbeat", "at"}
START_TIMEOUT_S, STOP_TIMEOUT_S, READ_TIMEOUT_S = 30.0, 15.0, 20.0
PR_SET_PDEATHSIG = 1

# Keys a test was issued (a refresh): no server log may hold one (checked as each test ends).
ISSUED_KEYS: set[str] = set()

_FORKS = multiprocessing.get_context("forkserver")
_FORKS.set_forkserver_preload(["harness"])
_forkserver_started = False


def _start_forkserver() -> None:
    """The process servers are forked from, with this module (so aiohttp and the server)
    imported. Python 3.11 starts it on its default path, where `harness` is not found and the
    preload would quietly do nothing (each fork then imports everything again): hence PYTHONPATH
    while it starts."""
    global _forkserver_started
    if _forkserver_started:
        return
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (TESTS, DEVSERVER, saved) if p)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        if saved is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = saved
    _forkserver_started = True


def _serve(argv: list[str], out_path: str, log_path: str) -> None:
    """A forked server: stdout (its READY line) and stderr (its log) in files, then the
    server's own main, as `python3 devserver/server.py ARGV` would run it."""
    # SIGTERM when the fork server ends (it ends with the test run): a run killed before its
    # teardown leaves no server behind.
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
    for fd, path in ((1, out_path), (2, log_path)):
        opened = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False, buffering=1)
    logging.root.handlers.clear()
    sys.exit(server.main(argv))


class Server:
    """One dev server process. `cli=True` runs the real command line (a fresh interpreter),
    else a fork that skips the imports (the same `server.main`, a fraction of the start-up)."""

    def __init__(self, workdir: str, name: str, flags: tuple[str, ...], db: str | None = None,
                 cli: bool = False, host_args: tuple[str, ...] = ("--host", "127.0.0.1", "--port", "0")):
        self.name = name
        self.out_path = os.path.join(workdir, f"{name}.out")
        self.log_path = os.path.join(workdir, f"{name}.log")
        # Named server.db: the key leak check (scripts/check-key-leaks.sh) leaves a server's own
        # database out, as it does everywhere.
        self.db = db or os.path.join(workdir, f"{name}-db", "server.db")
        self.argv = [*host_args, "--db", self.db, "--seed", str(SEED), *flags]
        self.cli = cli
        self.proc = None
        self.url, self.port = "", 0

    def spawn(self) -> "Server":
        if self.cli:
            with open(self.out_path, "ab") as out, open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen([sys.executable, SERVER, *self.argv], stdout=out, stderr=log,
                                             stdin=subprocess.DEVNULL)
        else:
            _start_forkserver()
            self.proc = _FORKS.Process(target=_serve, args=(self.argv, self.out_path, self.log_path))
            self.proc.start()
        return self

    def start(self) -> "Server":
        """Spawns the server and waits for its READY line."""
        self.spawn()
        deadline = time.monotonic() + START_TIMEOUT_S
        while "\n" not in self.stdout():
            if self.returncode() is not None:
                raise AssertionError(f"{self.name} exited {self.returncode()} before READY:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: no READY line in {START_TIMEOUT_S} s:\n{self.log_tail()}")
            time.sleep(0.005)
        m = READY.fullmatch(self.stdout())
        assert m is not None, f"the server prints READY http://127.0.0.1:PORT (got {self.stdout()!r})"
        self.url, self.port = m.group(1), int(m.group(2))
        return self

    def wait(self, timeout: float = STOP_TIMEOUT_S) -> int:
        """The exit status of a server that ends by itself."""
        if self.cli:
            return self.proc.wait(timeout)
        self.proc.join(timeout)
        assert self.proc.exitcode is not None, f"{self.name} still running after {timeout} s"
        return self.proc.exitcode

    def stop(self) -> int:
        """SIGTERM, then the exit status."""
        if self.returncode() is None:
            self.proc.terminate()
        return self.wait()

    def kill(self) -> None:
        if self.proc is not None and self.returncode() is None:
            self.proc.kill()
            self.wait()

    def returncode(self) -> int | None:
        if self.proc is None:
            return None
        return self.proc.poll() if self.cli else self.proc.exitcode

    def api(self, key: str = KEY) -> "Api":
        return Api(self, key)

    def stdout(self) -> str:
        return _read(self.out_path).decode("utf-8", "replace")

    def log(self) -> bytes:
        return _read(self.log_path)

    def log_tail(self) -> str:
        return self.log()[-3000:].decode("utf-8", "replace")


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return b""


# ---- clients ---------------------------------------------------------------------------------

_SESSIONS: list[aiohttp.ClientSession] = []


async def close_sessions() -> None:
    """Closes what this test opened (called as each async test ends, in its event loop)."""
    while _SESSIONS:
        await _SESSIONS.pop().close()


class Api:
    """REST and /_dev calls on one server, with the key sent as `x-makima-api-key`."""

    def __init__(self, srv: Server, key: str = KEY):
        self.server, self.key = srv, key
        self._session: aiohttp.ClientSession | None = None

    @property
    def base(self) -> str:
        return self.server.url

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=READ_TIMEOUT_S * 3))
            _SESSIONS.append(self._session)
        return self._session

    def headers(self, key: str | None = "default") -> dict[str, str]:
        return {} if key is None else {"x-makima-api-key": self.key if key == "default" else key}

    async def get(self, path: str, key: str | None = "default", expect: int = 200):
        return await self.call("GET", path, key, expect)

    async def call(self, method: str, path: str, key: str | None = "default", expect: int = 200):
        async with self.session.request(method, self.base + path, headers=self.headers(key)) as r:
            body = await r.read()
            assert r.status == expect, f"{method} {path} answers {expect} (got {r.status}: {body[:200]!r})"
            return json.loads(body) if body and r.content_type == "application/json" else body.decode()

    async def dev(self, method: str, path: str, expect: int = 200):
        return await self.call(method, path, None, expect)

    async def refresh(self) -> dict:
        """Rotates the key in use; the new one is remembered for the log check."""
        rotated = await self.call("POST", "/api/v1/auth/api-keys/refresh")
        ISSUED_KEYS.add(rotated["key"])
        return rotated

    async def truth(self, task_id: str) -> list[dict]:
        """Every stored event of a task (/_dev/events)."""
        return (await self.dev("GET", f"/_dev/events?task_id={task_id}"))["items"]

    async def output(self, task_id: str) -> list[dict]:
        """Every event of a task read through REST /output, page by page."""
        items, after = [], 0
        while True:
            page = await self.get(f"/api/v1/mesh/tasks/{task_id}/output?after_seq={after}&limit=2000")
            if not page["items"]:
                return items
            items += page["items"]
            after = page["next_after_seq"]

    async def ws(self, last_seen: dict, before_resync=None) -> tuple[aiohttp.ClientWebSocketResponse, list[dict]]:
        """A subscription that has sent its resync and read the replay up to resync.done."""
        ws = await self.session.ws_connect(self.base + "/api/v1/mesh/tasks/subscribe", headers=self.headers(),
                                           compress=0, max_msg_size=0)
        if before_resync:
            before_resync()
        await ws.send_str(json.dumps({"type": "resync", "last_seen": last_seen}))
        replay = []
        while True:
            msg = await asyncio.wait_for(ws.receive(), READ_TIMEOUT_S)
            assert msg.type == aiohttp.WSMsgType.TEXT, f"text frames during resync (got {msg.type})"
            data = json.loads(msg.data)
            if data.get("type") == "resync.done":
                return ws, replay
            replay.append(data)


async def read_events(ws, count: int, timeout: float = READ_TIMEOUT_S) -> list[dict]:
    out = []
    while len(out) < count:
        msg = await asyncio.wait_for(ws.receive(), timeout)
        assert msg.type == aiohttp.WSMsgType.TEXT, f"live events are text frames (got {msg.type})"
        out.append(json.loads(msg.data))
    return out


async def ws_until(ws, want: dict[str, int], seen: list[dict]) -> None:
    """Reads live events into `seen` until each task in `want` has reached its seq."""
    reached: dict[str, int] = {}
    for e in seen:
        reached[e["task_id"]] = max(reached.get(e["task_id"], 0), e["seq"])
    while any(reached.get(t, 0) < s for t, s in want.items()):
        (e,) = await read_events(ws, 1)
        seen.append(e)
        reached[e["task_id"]] = max(reached.get(e["task_id"], 0), e["seq"])


class RawWS:
    """A WebSocket client that sees every frame as sent (opcodes, bytes that are not UTF-8,
    a cut without a close frame) and the upgrade answer's head."""

    @classmethod
    async def connect(cls, port: int, key: str | None = KEY) -> tuple["RawWS", int]:
        self = cls()
        self.r, self.w = await asyncio.open_connection("127.0.0.1", port)
        nonce = base64.b64encode(os.urandom(16)).decode()
        head = (f"GET /api/v1/mesh/tasks/subscribe HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {nonce}\r\nSec-WebSocket-Version: 13\r\n")
        if key:
            head += f"x-makima-api-key: {key}\r\n"
        self.w.write((head + "\r\n").encode())
        self.head = await asyncio.wait_for(self.r.readuntil(b"\r\n\r\n"), READ_TIMEOUT_S)
        return self, int(self.head.split(b" ", 2)[1])

    def send_text(self, text: str) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
        self.w.write(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    async def frame(self, timeout: float = READ_TIMEOUT_S) -> tuple[int, bytes]:
        """(opcode, payload); pings are skipped; (-1, b"") at the end of the stream."""
        while True:
            try:
                b0, b1 = await asyncio.wait_for(self.r.readexactly(2), timeout)
            except asyncio.IncompleteReadError:
                return -1, b""
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", await self.r.readexactly(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", await self.r.readexactly(8))[0]
            payload = await asyncio.wait_for(self.r.readexactly(n), timeout)
            if b0 & 0x0F != 0x9:
                return b0 & 0x0F, payload

    async def resync(self, last_seen: dict) -> None:
        self.send_text(json.dumps({"type": "resync", "last_seen": last_seen}))
        while True:
            op, payload = await self.frame()
            assert op == 1, f"text frames during resync (got opcode {op})"
            if json.loads(payload).get("type") == "resync.done":
                return

    def close(self) -> None:
        self.w.close()


# ---- reading answers ---------------------------------------------------------------------------

def walk_times(value, found: list) -> list:
    """Every timestamp in a JSON answer (keys ending in _at, and ts, last_heartbeat, at)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, str) and (k.endswith("_at") or k in TIME_KEYS):
                found.append(v)
            else:
                walk_times(v, found)
    elif isinstance(value, list):
        for v in value:
            walk_times(v, found)
    return found


def seqs_of(events: list[dict], task_id: str) -> list[int]:
    return [e["seq"] for e in events if e.get("task_id") == task_id]


def stamp(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def http_stamp(value: str) -> float:
    return email.utils.parsedate_to_datetime(value).timestamp()


def within(value: float, low: float, high: float) -> bool:
    """`value` was stamped between two readings of the clock, `low` and `high`, by a server
    that drops fractions of a second (at most 1 s early) or keeps them."""
    return low - 1.001 <= value <= high + 0.001


def not_json(p: bytes) -> bool:
    try:
        json.loads(p)
        return False
    except ValueError:
        return True


def not_utf8(p: bytes) -> bool:
    try:
        p.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


async def until(condition, what: str, timeout: float = READ_TIMEOUT_S) -> None:
    """Polls `await condition()` until it is true; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        await asyncio.sleep(0.01)
