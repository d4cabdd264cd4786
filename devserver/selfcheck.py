#!/usr/bin/env python3
"""Self-check of the dev server (run by CI): starts it on port 0 with a temp database and
exercises every endpoint, resync replay, each test control, key rotation, a restart on the
same database and a burst of about 40,000 events. Exits non-zero on the first failure.

    python3 devserver/selfcheck.py [--keep]   (--keep leaves the temp dir for inspection)
"""
from __future__ import annotations

import asyncio
import base64
import email.utils
import json
import os
import re
import shutil
import signal
import struct
import sys
import tempfile
import time
from datetime import datetime
from urllib.parse import urlencode

import aiohttp

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "server.py")
KEY = "mk_demo_local_key_0001"
SEED = 7
RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
TIME_KEYS = {"ts", "last_heartbeat", "at"}


class Failure(Exception):
    pass


def check(cond, what: str) -> None:
    if not cond:
        raise Failure(what)


def ok(what: str) -> None:
    print(f"ok   {what}", flush=True)


# ---- the server process -------------------------------------------------------------------

class Server:
    def __init__(self, workdir: str, name: str, db: str, *flags: str):
        self.log_path = os.path.join(workdir, f"{name}.log")
        self.args = [sys.executable, SERVER, "--host", "127.0.0.1", "--port", "0", "--db", db,
                     "--seed", str(SEED), *flags]
        self.proc = None
        self.url = ""
        self.port = 0

    async def start(self) -> "Server":
        self.log = open(self.log_path, "ab")
        self.proc = await asyncio.create_subprocess_exec(*self.args, stdout=asyncio.subprocess.PIPE, stderr=self.log)
        line = await asyncio.wait_for(self.proc.stdout.readline(), 20)
        m = re.fullmatch(rb"READY (http://127\.0\.0\.1:(\d+))\n", line)
        check(m is not None, f"server prints READY http://127.0.0.1:PORT (got {line!r})")
        self.url, self.port = m.group(1).decode(), int(m.group(2))
        return self

    async def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.proc.wait(), 10)
        self.log.close()
        return code


# ---- a raw WebSocket client (sees frames exactly as sent) ---------------------------------------

class RawWS:
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
        reply = await asyncio.wait_for(self.r.readuntil(b"\r\n\r\n"), 5)
        self.head = reply
        return self, int(reply.split(b" ", 2)[1])

    def send_text(self, text: str) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
        self.w.write(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    async def frame(self, timeout: float = 5) -> tuple[int, bytes]:
        """(opcode, payload); pings are skipped; (-1, b"") at end of stream."""
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
            check(op == 1, f"text frames during resync (got opcode {op})")
            if json.loads(payload).get("type") == "resync.done":
                return

    def close(self) -> None:
        self.w.close()


# ---- helpers ------------------------------------------------------------------------------

class Api:
    def __init__(self, session: aiohttp.ClientSession, server: Server, key: str = KEY):
        self.s, self.base, self.key = session, server.url, key

    async def get(self, path: str, key: str | None = "default", expect: int = 200):
        headers = {} if key is None else {"x-makima-api-key": self.key if key == "default" else key}
        async with self.s.get(self.base + path, headers=headers) as r:
            body = await r.read()
            check(r.status == expect, f"GET {path} answers {expect} (got {r.status}: {body[:200]!r})")
            return json.loads(body) if body and r.content_type == "application/json" else body.decode()

    async def dev(self, method: str, path: str, expect: int = 200):
        async with self.s.request(method, self.base + path) as r:
            body = await r.read()
            check(r.status == expect, f"{method} {path} answers {expect} (got {r.status}: {body[:200]!r})")
            return json.loads(body) if r.content_type == "application/json" else body.decode()


def walk_times(value, found: list) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, str) and (k.endswith("_at") or k in TIME_KEYS):
                found.append(v)
            else:
                walk_times(v, found)
    elif isinstance(value, list):
        for v in value:
            walk_times(v, found)


async def ws_connect(session: aiohttp.ClientSession, server: Server, last_seen: dict, key: str = KEY,
                     before_resync=None):
    ws = await session.ws_connect(server.url + "/api/v1/mesh/tasks/subscribe",
                                  headers={"x-makima-api-key": key}, compress=0, max_msg_size=0)
    if before_resync:
        before_resync()
    await ws.send_str(json.dumps({"type": "resync", "last_seen": last_seen}))
    replay = []
    while True:
        msg = await asyncio.wait_for(ws.receive(), 10)
        check(msg.type == aiohttp.WSMsgType.TEXT, f"text frames during resync (got {msg.type})")
        data = json.loads(msg.data)
        if data.get("type") == "resync.done":
            return ws, replay
        replay.append(data)


async def read_events(ws, count: int, timeout: float = 10) -> list[dict]:
    out = []
    while len(out) < count:
        msg = await asyncio.wait_for(ws.receive(), timeout)
        check(msg.type == aiohttp.WSMsgType.TEXT, f"live events are text frames (got {msg.type})")
        out.append(json.loads(msg.data))
    return out


async def truth(api: Api, task_id: str) -> list[dict]:
    return (await api.dev("GET", f"/_dev/events?task_id={task_id}"))["items"]


def seqs_of(events: list[dict], task_id: str) -> list[int]:
    return [e["seq"] for e in events if e.get("task_id") == task_id]


# ---- the checks ---------------------------------------------------------------------------

async def check_basics(api: Api, server: Server) -> dict:
    h = await api.get("/health", key=None)
    check(h.get("status") == "ok" and isinstance(h.get("version"), str), "GET /health → status ok + version")
    await api.get("/api/v1/health", key=None)
    for path in ("/api/v1/mesh/daemons", "/api/v1/mesh/tasks", "/api/v1/contracts"):
        body = await api.get(path, key=None, expect=401)
        check(body == {"error": "unauthorized"}, f"{path} without key → 401 unauthorized")
        await api.get(path, key="mk_wrong_key_0000", expect=401)
    raw, status = await RawWS.connect(server.port, key=None)
    raw.close()
    check(status == 401, f"WS upgrade without key → 401 (got {status})")
    ok("health without auth; 401 {\"error\":\"unauthorized\"} without or with a wrong key (REST and WS)")

    daemons = await api.get("/api/v1/mesh/daemons")
    check(isinstance(daemons, list) and len(daemons) == 6, "daemons: a bare list of 6")
    online = [d for d in daemons if d["status"] in ("online", "busy")]
    check(len(online) == 4 and all(d["hostname"].endswith(".mesh.local") for d in daemons), "4 online, 2 offline, *.mesh.local")
    tasks = await api.get("/api/v1/mesh/tasks?limit=1000")
    check(isinstance(tasks, dict) and len(tasks["items"]) >= 30 and tasks["total"] == len(tasks["items"]), "tasks wrapped, dozens")
    statuses = {t["status"] for t in tasks["items"]}
    check({"pending", "queued", "running", "completed", "failed", "cancelled"} <= statuses, f"task statuses all present ({statuses})")
    running = await api.get("/api/v1/mesh/tasks?status=running")
    check(len(running["items"]) >= 3 and all(t["status"] == "running" for t in running["items"]), "status filter")
    contracts = await api.get("/api/v1/contracts")
    by_status = {s: len([c for c in contracts["items"] if c["status"] == s]) for s in ("active", "completed", "archived")}
    check(by_status == {"active": 5, "completed": 3, "archived": 2}, f"contracts 5/3/2 ({by_status})")
    check(any(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", c["name"]) for c in contracts["items"]), "Japanese in contract names")
    archived = await api.get("/api/v1/contracts?status=archived")
    check(len(archived["items"]) == 2, "contract status filter")
    c0 = contracts["items"][0]
    detail = await api.get(f"/api/v1/contracts/{c0['id']}")
    check(detail["id"] == c0["id"] and "phase" in detail, "contract detail")
    in_contract = await api.get(f"/api/v1/mesh/tasks?contract_id={c0['id']}")
    check(all(t["contract_id"] == c0["id"] for t in in_contract["items"]) and
          len(in_contract["items"]) == detail["task_count"], "tasks by contract_id")
    t0 = tasks["items"][0]
    check((await api.get(f"/api/v1/mesh/tasks/{t0['id']}"))["id"] == t0["id"], "task detail")
    directives = await api.get("/api/v1/directives")
    pending = await api.get("/api/v1/directives?pending=true")
    check(len(directives["items"]) >= 3 and len(pending["items"]) >= 1 and
          all(d["has_pending_question"] and d["pending_question"]["text"] for d in pending["items"]), "directives + pending")
    sessions = await api.get("/api/v1/listen/sessions")
    check(len(sessions["items"]) >= 4, "4+ listen sessions")
    latest = await api.get("/api/v1/listen/sessions?limit=1")
    check(len(latest["items"]) == 1 and latest["items"][0]["id"] == sessions["items"][0]["id"], "listen limit=1 is the latest")
    full = await api.get(f"/api/v1/listen/sessions/{sessions['items'][1]['id']}")
    check(len(full["transcript"]) >= 4 and all("text" in l for l in full["transcript"]), "listen session with transcript")
    for path in ("/api/v1/mesh/tasks/nope", "/api/v1/mesh/tasks/nope/output", "/api/v1/contracts/nope",
                 "/api/v1/listen/sessions/nope", "/api/v1/no/such/route"):
        check(await api.get(path, expect=404) == {"error": "not found"}, f"{path} → 404 not found")
    await api.get("/api/v1/mesh/tasks/x/output?after_seq=abc", expect=404)
    await api.get(f"/api/v1/mesh/tasks/{t0['id']}/output?after_seq=abc", expect=400)

    times: list[str] = []
    for value in (daemons, tasks, contracts, directives, sessions, full):
        walk_times(value, times)
    check(times and all(RFC3339.match(t) for t in times), "every timestamp is RFC 3339")
    check(any("." in t for t in times) and any("." not in t for t in times), "timestamps with and without fractions")
    check(any(t.endswith("+09:00") for t in times), "a timestamp with an offset")
    ok(f"REST shapes: daemons bare, others wrapped; counts from the seed; 404s; {len(times)} timestamps RFC 3339")

    seeded = await api.dev("GET", "/_dev/seeded")
    check(seeded["daemons_online"] == 4 and seeded["daemons_offline"] == 2 and seeded["active_contracts"] == 5
          and seeded["pending_questions"] >= 1 and seeded["running_tasks"] == len(running["items"])
          and seeded["latest_listen_session"]["id"] == sessions["items"][0]["id"], f"/_dev/seeded agrees ({seeded})")
    ok("/_dev/seeded agrees with the REST answers")
    return {"tasks": tasks["items"], "running": [t["id"] for t in running["items"]], "directives": directives["items"]}


async def check_output(api: Api, tasks: list[dict]) -> None:
    done = [t for t in tasks if t["status"] in ("completed", "failed")]
    all_text, saw_gate_event = "", False
    for t in done:
        events = await truth(api, t["id"])
        check([e["seq"] for e in events] == list(range(1, len(events) + 1)), "truth seqs are 1..n")
        pages, after = [], 0
        while True:
            page = await api.get(f"/api/v1/mesh/tasks/{t['id']}/output?after_seq={after}&limit=7")
            check(page["next_after_seq"] == (page["items"][-1]["seq"] if page["items"] else after), "next_after_seq")
            if not page["items"]:
                break
            pages += page["items"]
            after = page["next_after_seq"]
        check(pages == events, "paged output equals the truth")
        text = await api.dev("GET", f"/_dev/output?task_id={t['id']}")
        check(text == "".join(e["data"]["text"] for e in events if e["type"] == "task.output"), "/_dev/output")
        saw_gate_event |= any(e["type"] == "task.completion_gate" and "body" in e["data"] for e in events)
        all_text += text
    for needle in ("<COMPLETION_GATE>", "```swift", "```bash", "\x1b[32m", "tool_use:", "- "):
        check(needle in all_text, f"seeded output holds {needle!r}")
    check(saw_gate_event, "task.completion_gate events in history")
    big = await api.get(f"/api/v1/mesh/tasks/{done[0]['id']}/output?limit=99999")
    check(len(big["items"]) <= 2000, "limit capped")
    ok(f"output paging equals /_dev/events for {len(done)} finished tasks; markdown, code, SGR, gates present")


async def check_resync(api: Api, session, server: Server, running: list[str]) -> None:
    t = running[0]
    ws, replay = await ws_connect(session, server, {t: 0})
    truth_t = await truth(api, t)
    check(replay == truth_t, "resync from 0 replays the task's whole history, in order")
    tick = await api.dev("POST", "/_dev/tick?count=40")
    live = await read_events(ws, tick["events"])
    await ws.close()
    last_seen: dict[str, int] = {t: truth_t[-1]["seq"]}
    for e in live:
        check(e["seq"] == last_seen.get(e["task_id"], e["seq"] - 1) + 1 or e["task_id"] not in last_seen,
              f"live seqs contiguous for {e['task_id']}")
        last_seen[e["task_id"]] = e["seq"]
    # Half of what was seen is "forgotten" to make the replay non-trivial.
    named = {k: max(0, v - 2) for k, v in last_seen.items()}
    await api.dev("POST", "/_dev/tick?count=40")
    before = {k: (await truth(api, k))[-1]["seq"] for k in named}
    ws, replay = await ws_connect(session, server, named)
    tick = await api.dev("POST", "/_dev/tick?count=30")
    live = await read_events(ws, tick["events"])
    await ws.close()
    for task_id, seen in named.items():
        got = seqs_of(replay, task_id) + seqs_of(live, task_id)
        want = list(range(seen + 1, (await truth(api, task_id))[-1]["seq"] + 1))
        check(got == want, f"resync for {task_id}: got {got[:5]}… want {want[:5]}…")
        check(seqs_of(replay, task_id) == list(range(seen + 1, before[task_id] + 1)), "replay stops at the resync point")
    others = [e for e in replay if e["task_id"] not in named]
    check(not others, "nothing replayed for tasks not named")
    ok(f"resync: replay after last_seen for {len(named)} tasks, then live; no gap, no double")


async def check_controls(api: Api, session, server: Server, ctx: dict) -> None:
    raw, status = await RawWS.connect(server.port)
    check(status == 101, "raw WS upgrade")
    await raw.resync({})
    dropped = await api.dev("POST", "/_dev/drop_ws")
    check(dropped["dropped"] >= 1, "drop_ws counts connections")
    frames = []
    while True:
        op, _ = await raw.frame()
        if op == -1:
            break
        frames.append(op)
    check(0x8 not in frames, "drop_ws sends no close frame")
    ok("drop_ws: connection cut without a close frame")

    raw, _ = await RawWS.connect(server.port)
    await raw.resync({})
    for kind, verify in (
        ("truncated", lambda op, p: op == 1 and _not_json(p)),
        ("wrong_types", lambda op, p: op == 1 and json.loads(p)["seq"] == "x"),
        ("unknown_type", lambda op, p: op == 1 and json.loads(p)["type"] == "task.mystery"
         and json.loads(p)["task_id"] == "_dev_mystery" and json.loads(p)["seq"] >= 1),
        ("huge", lambda op, p: op == 1 and len(p) == 10 * 1024 * 1024 and json.loads(p)["type"] == "dev.huge"),
        ("invalid_utf8", lambda op, p: op == 1 and _not_utf8(p)),
        ("binary", lambda op, p: op == 2 and len(p) > 0),
    ):
        answer = await api.dev("POST", f"/_dev/malformed?kind={kind}")
        check(answer["sent_to"] >= 1, f"malformed {kind} sent")
        op, payload = await raw.frame(10)
        check(verify(op, payload), f"malformed {kind} frame as documented (opcode {op}, {payload[:60]!r})")
    await api.dev("POST", "/_dev/malformed?kind=nonsense", expect=400)
    # The connection still carries events after all that.
    task = await api.dev("POST", "/_dev/task?status=running")
    op, payload = await raw.frame()
    check(op == 1 and json.loads(payload)["task_id"] == task["id"], "events still flow after malformed frames")
    raw.close()
    ok("malformed: truncated, wrong_types, unknown_type (pseudo-task), huge 10 MiB, invalid UTF-8 text, binary")

    await api.dev("POST", "/_dev/fail?count=2&status=503")
    for _ in range(2):
        check(await api.get("/api/v1/mesh/daemons", expect=503) == {"error": "injected failure"}, "injected failure body")
    await api.get("/api/v1/mesh/daemons")
    ok("fail: the next 2 requests answer 503 {\"error\":\"injected failure\"}, then normal")

    await api.dev("POST", "/_dev/latency?ms=250")
    started = time.monotonic()
    await api.get("/api/v1/contracts")
    check(time.monotonic() - started >= 0.25, "latency added")
    await api.dev("POST", "/_dev/latency?ms=0")
    ok("latency: added to API requests")

    await api.dev("POST", "/_dev/unauthorized?on=true")
    await api.get("/api/v1/mesh/daemons", expect=401)
    _, status = await RawWS.connect(server.port)
    check(status == 401, "unauthorized applies to the WS upgrade")
    await api.get("/health", key=None)
    await api.dev("POST", "/_dev/unauthorized?on=false")
    await api.get("/api/v1/mesh/daemons")
    ok("unauthorized on/off (REST and WS upgrade; /health stays open)")

    await api.dev("POST", "/_dev/ws_reject?status=503&count=1")
    _, first = await RawWS.connect(server.port)
    second, status = await RawWS.connect(server.port)
    second.close()
    check(first == 503 and status == 101, f"ws_reject refuses exactly one upgrade ({first}, {status})")
    ok("ws_reject: next upgrade refused with 503, then accepted")

    await api.dev("POST", "/_dev/ws_reject?status=429&count=1&retry_after=7")
    refused, status = await RawWS.connect(server.port)
    refused.close()
    check(status == 429 and b"\r\nretry-after: 7\r\n" in refused.head.lower(),
          f"ws_reject with retry_after sends Retry-After ({status})")
    ok("ws_reject: a refused upgrade carries Retry-After when asked")

    ws, _ = await ws_connect(session, server, {})
    task = await api.dev("POST", "/_dev/task?status=running")
    check(task["status"] == "running", "new running task")
    changed = await api.dev("POST", f"/_dev/task/{task['id']}/status?status=completed")
    check(changed["event"]["data"] == {"status": "completed", "previous": "running"}, "task.status event data")
    check((await api.get(f"/api/v1/mesh/tasks/{task['id']}"))["status"] == "completed", "task now completed")
    directive = next(d for d in ctx["directives"] if not d["has_pending_question"])
    asked = await api.dev("POST", f"/_dev/question?directive_id={directive['id']}")
    check(asked["event"]["type"] == "task.supervisor_question" and asked["directive"]["has_pending_question"], "question")
    pending = await api.get("/api/v1/directives?pending=true")
    check(directive["id"] in {d["id"] for d in pending["items"]}, "directive now pending")
    got = await read_events(ws, 3)
    check([e["type"] for e in got] == ["task.status", "task.status", "task.supervisor_question"], "WS saw all three")
    await ws.close()
    await api.dev("POST", "/_dev/task/nope/status?status=completed", expect=404)
    ok("task create/status and question controls emit their events")

    daemons = await api.get("/api/v1/mesh/daemons")
    daemon = next(d for d in (daemons["items"] if isinstance(daemons, dict) else daemons) if d["status"] == "online")
    ws, _ = await ws_connect(session, server, {})
    changed = await api.dev("POST", f"/_dev/daemon/{daemon['id']}/status?status=offline&heartbeat_ago=70")
    check(changed["id"] == daemon["id"] and changed["status"] == "offline", f"daemon control answer ({changed})")
    listed = await api.get("/api/v1/mesh/daemons")
    row = next(d for d in (listed["items"] if isinstance(listed, dict) else listed) if d["id"] == daemon["id"])
    beat = datetime.fromisoformat(row["last_heartbeat"].replace("Z", "+00:00")).timestamp()
    check(row["status"] == "offline" and 60 < time.time() - beat < 90, f"daemon offline, heartbeat 70 s ago ({row})")
    silent = False
    try:
        await read_events(ws, 1, timeout=0.5)
    except asyncio.TimeoutError:
        silent = True
    check(silent, "a daemon's status change says nothing on the WebSocket")
    await ws.close()
    await api.dev("POST", f"/_dev/daemon/{daemon['id']}/status?status=online&heartbeat_ago=0")
    await api.dev("POST", f"/_dev/daemon/{daemon['id']}/status?status=bogus", expect=400)
    await api.dev("POST", "/_dev/daemon/nope/status?status=online", expect=404)
    ok("daemon status control: seen by GET /mesh/daemons only, not on the WebSocket")

    sys.path.insert(0, HERE)
    from util import is_loopback_peer
    check(is_loopback_peer("127.0.0.1") and is_loopback_peer("::1") and is_loopback_peer("::ffff:127.0.0.1")
          and not is_loopback_peer("192.168.1.5") and not is_loopback_peer(None), "loopback peer test")
    ok("/_dev loopback check (unit)")


async def check_hostile(api: Api, session, server: Server) -> None:
    await api.dev("POST", "/_dev/fail?count=1&status=429&retry_after=7")
    async with session.get(server.url + "/api/v1/mesh/daemons", headers={"x-makima-api-key": KEY}) as r:
        check(r.status == 429 and r.headers.get("Retry-After") == "7", "fail with retry_after sends Retry-After")
    ok("fail: retry_after adds a Retry-After header")

    task = (await api.dev("POST", "/_dev/burst?count=10"))["task_id"]
    base = f"/api/v1/mesh/tasks/{task}/output?after_seq=5&limit=3"
    await api.dev("POST", "/_dev/hostile/output?mode=ignore_after_seq")
    check([e["seq"] for e in (await api.get(base))["items"]] == [1, 2, 3], "ignore_after_seq serves the first page")
    await api.dev("POST", "/_dev/hostile/output?mode=skip_ahead&skip=3")
    check([e["seq"] for e in (await api.get(base))["items"]] == [9, 10, 11], "skip_ahead starts past after+1")
    await api.dev("POST", "/_dev/hostile/output?mode=empty")
    check((await api.get("/api/v1/mesh/tasks/no-such-task/output"))["items"] == [], "empty answers any task")
    await api.dev("POST", "/_dev/hostile/output?mode=bogus", expect=400)
    await api.dev("POST", "/_dev/hostile/output?mode=normal")
    check([e["seq"] for e in (await api.get(base))["items"]] == [6, 7, 8], "normal output again")
    ok("hostile output modes: ignore_after_seq, skip_ahead, empty, normal")

    raw, _ = await RawWS.connect(server.port)
    await raw.resync({})
    sent = await api.dev("POST", "/_dev/hostile/absurd_seq")
    op, payload = await raw.frame()
    check(op == 1 and json.loads(payload)["seq"] == (1 << 63) - 1 and sent["sent_to"] >= 1, "absurd seq frame")
    flood = await api.dev("POST", "/_dev/hostile/gap_flood?tasks=2&events=3")
    seen: dict[str, list[int]] = {}
    # Each task: every stored event but the withheld one (its lines may be several pieces each).
    while sum(len(v) for v in seen.values()) < sum(flood["last_seqs"].values()) - len(flood["tasks"]):
        op, payload = await raw.frame()
        event = json.loads(payload)
        seen.setdefault(event["task_id"], []).append(event["seq"])
    for task_id in flood["tasks"]:
        withheld = flood["withheld_seqs"][task_id]
        stored = [e["seq"] for e in await truth(api, task_id)]
        check(withheld in stored and withheld not in seen[task_id] and len(stored) == len(seen[task_id]) + 1,
              f"gap flood withholds one stored seq per task ({seen[task_id]} of {stored})")
    poisoned = await api.dev("POST", f"/_dev/hostile/poison?task_id={task}")
    op, payload = await raw.frame()
    check(op == 1 and _not_utf8(payload) and b"POISON" not in payload, "poisoned frame is not UTF-8")
    page = await api.get(f"/api/v1/mesh/tasks/{task}/output?after_seq={poisoned['seq'] - 1}&limit=1")
    check("POISON-MARKER" in page["items"][0]["data"]["text"], "REST serves the stored, valid frame")
    raw.close()
    raw, _ = await RawWS.connect(server.port)
    raw.send_text(json.dumps({"type": "resync", "last_seen": {task: poisoned["seq"] - 1}}))
    op, payload = await raw.frame()
    check(op == 1 and _not_utf8(payload), "the poisoned frame is replayed on resync")
    raw.close()
    await api.dev("POST", "/_dev/hostile/no_resync_done?on=true")
    raw, _ = await RawWS.connect(server.port)
    raw.send_text(json.dumps({"type": "resync", "last_seen": {}}))
    await asyncio.sleep(0.2)
    created = await api.dev("POST", "/_dev/task?status=running")
    op, payload = await raw.frame()
    check(op == 1 and json.loads(payload).get("task_id") == created["id"], "no resync.done before live events")
    raw.close()
    await api.dev("POST", "/_dev/reset")
    ok("hostile frames: absurd seq, gap flood (one seq withheld per task), poisoned UTF-8 live and on replay, "
       "replays without resync.done")


def _not_json(p: bytes) -> bool:
    try:
        json.loads(p)
        return False
    except ValueError:
        return True


def _not_utf8(p: bytes) -> bool:
    try:
        p.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


async def check_keys(api: Api) -> str:
    keys = await api.get("/api/v1/auth/api-keys")
    check(len(keys["items"]) == 1 and keys["items"][0]["prefix"] == KEY[:10], "one key, its prefix only")
    async with api.s.post(api.base + "/api/v1/auth/api-keys/refresh", headers={"x-makima-api-key": KEY}) as r:
        check(r.status == 200, "refresh answers 200")
        rotated = await r.json()
    new_key = rotated["key"]
    check(new_key.startswith("mk_") and new_key != KEY and re.fullmatch(r"[A-Za-z0-9_.-]+", new_key), "new key shape")
    revoked = await api.get("/api/v1/mesh/daemons", expect=401)
    check(revoked == {"error": "api key revoked"}, "the rotated-away key is refused as revoked")
    unknown = await api.get("/api/v1/mesh/daemons", key="mk_never_issued_0000", expect=401)
    check(unknown == {"error": "unauthorized"}, "an unknown key is refused as unauthorized")
    await api.get("/api/v1/mesh/daemons", key=new_key)
    keys = await api.get("/api/v1/auth/api-keys", key=new_key)
    check([k["id"] for k in keys["items"]] == [rotated["id"]], "list shows the new key only")
    ok("refresh: old key stops working (401 says revoked), new one works")
    return new_key


async def check_burst(api: Api, session, server: Server) -> dict:
    """About 40,000 events (10,000 lines, each cut into pieces): one subscriber connected
    before the burst, one that resyncs from 0 while the burst is being written. Both must see
    every seq once, in order."""
    early, _ = await ws_connect(session, server, {}, key=api.key)
    task = await api.dev("POST", "/_dev/task?status=running")
    task_id = task["id"]
    started = time.monotonic()
    burst = asyncio.create_task(api.dev("POST", f"/_dev/burst?task_id={task_id}&count=10000"))

    async def collect(ws, seqs: list[int], upto: int) -> None:
        while not seqs or seqs[-1] < upto:
            msg = await asyncio.wait_for(ws.receive(), 20)
            check(msg.type == aiohttp.WSMsgType.TEXT, "burst frames are text")
            e = json.loads(msg.data)
            if e["task_id"] == task_id:
                seqs.append(e["seq"])

    early_seqs: list[int] = []
    await collect(early, early_seqs, 1000)   # the burst is under way
    progress = []
    late, replay = await ws_connect(session, server, {task_id: 0}, key=api.key,
                                    before_resync=lambda: progress.append(not burst.done()))
    late_seqs = seqs_of(replay, task_id)
    result = await burst
    written = time.monotonic() - started
    last = result["last_seq"]
    check(result["lines"] == 10000 and last == result["count"] + 1 and result["count"] >= 10000,
          f"burst: creation event + the events of 10,000 lines (last_seq {last})")
    await asyncio.gather(collect(early, early_seqs, last), collect(late, late_seqs, last))
    delivered = time.monotonic() - started
    await early.close()
    await late.close()
    want = list(range(1, last + 1))
    check(early_seqs == want, "live subscriber: every burst seq once, in order")
    check(late_seqs == want, "subscriber resyncing mid-burst: every seq once, in order")
    tail = await api.get(f"/api/v1/mesh/tasks/{task_id}/output?after_seq={last - 11}")
    check([e["seq"] for e in tail["items"]] == list(range(last - 10, last + 1)), "burst tail via REST")
    ok(f"burst of 10,000 lines ({result['count']:,} events): written in {written:.2f} s, delivered in order to 2 subscribers in {delivered:.2f} s "
       f"(second one resynced mid-burst: {progress[0]}, {len(replay)} replayed)")
    return {"task_id": task_id, "last_seq": last}


async def check_scale(api: Api) -> None:
    """--seed-scale: the totals asked for, and /mesh/tasks read whole by following next_cursor."""
    seeded = await api.dev("GET", "/_dev/seeded")
    daemons = await api.get("/api/v1/mesh/daemons")
    check(seeded["tasks"] == 2500 and len(daemons) == 120, f"--seed-scale 2500,120 makes those totals ({seeded})")

    async def read_all(query: str) -> tuple[list[dict], int]:
        items, cursor, pages = [], None, 0
        while True:
            page = await api.get(f"/api/v1/mesh/tasks?{query}&limit=1000" + (f"&cursor={cursor}" if cursor else ""))
            items += page["items"]
            pages += 1
            cursor = page["next_cursor"]
            check(page["total"] >= len(items), "total counts every page")
            if cursor is None:
                return items, pages
            check(pages < 10, "paging ends")

    await api.dev("POST", "/_dev/requests/reset")
    every, pages = await read_all("")
    logged = (await api.dev("GET", "/_dev/requests"))["recent"]
    check(len(logged) == 3 and all(r.startswith("GET /api/v1/mesh/tasks?&limit=1000") for r in logged),
          f"/_dev/requests logs each page read ({logged})")
    plans = [len(t["plan"].encode()) for t in every if (t.get("tags") or [None])[0] == "scale"]
    check(plans and min(plans) >= 200 and max(plans) > 2000 and all("_plan" not in t for t in every),
          f"seeded plans run from a few hundred bytes to a few KB ({min(plans or [0])}–{max(plans or [0])})")
    check(any(any(ord(c) > 0x3000 for c in t["title"]) for t in every)
          and any(t["title"].isascii() for t in every), "seeded titles in Japanese and in English")
    check(pages == 3 and len(every) == 2500 and len({t["id"] for t in every}) == 2500,
          f"three pages hold every task once ({pages} pages, {len(every)} items)")
    stamps = [t["updated_at"] for t in every]
    check(stamps == sorted(stamps, reverse=True), "pages continue the newest-first order")
    running, _ = await read_all("status=running")
    check(len(running) == seeded["running_tasks"] > 100 and all(t["status"] == "running" for t in running),
          f"the running list, paged, holds every running task ({len(running)}, seeded {seeded['running_tasks']})")
    await api.get("/api/v1/mesh/tasks?cursor=x1", expect=400)
    ok(f"--seed-scale: {seeded['tasks']} tasks, {len(daemons)} daemons, realistic titles and plans; /mesh/tasks pages"
       " by next_cursor; /_dev/requests logs the reads")


# ---- a server that streams like a real mesh ---------------------------------------------------

PIECES = (1, 40)
OFFSET = -3723.5
# The real clock and the server's agree this closely (a response is stamped while it is made).
CLOCK_SLACK_S = 60
# Output with every marker a cut must be allowed to split: bold, code, table rows, runs of
# newlines, an SGR escape, Japanese and a 4-byte code point.
STREAMED = ("The **scheduler** drops `heartbeat` frames when *busy*\n\n\n| a | b |\n|---|---|\n"
            "\x1b[32mok\x1b[0m 日本語 🚀 done\n") * 40
MARKERS = ("**", "`heartbeat`", "\n\n\n", "| a | b |", "\x1b[32m", "\x1b[0m", "日本語", "scheduler")


def stamp(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def http_stamp(value: str) -> float:
    return email.utils.parsedate_to_datetime(value).timestamp()


def check_pieces(texts: list[str], what: str) -> None:
    for t in texts:
        check(PIECES[0] <= len(t) <= PIECES[1], f"{what}: a piece of {PIECES[0]}..{PIECES[1]} characters ({t!r})")
        t.encode("utf-8")  # a lone surrogate (half a code point) would raise here


async def rest_output(api: Api, task_id: str) -> list[dict]:
    items, after = [], 0
    while True:
        page = await api.get(f"/api/v1/mesh/tasks/{task_id}/output?after_seq={after}&limit=2000")
        if not page["items"]:
            return items
        items += page["items"]
        after = page["next_after_seq"]


async def ws_until(ws, want: dict[str, int], seen: list[dict], timeout: float = 10) -> None:
    """Reads live events into `seen` until each task in `want` has reached its seq."""
    reached = {t: 0 for t in want}
    for e in seen:
        reached[e["task_id"]] = max(reached.get(e["task_id"], 0), e["seq"])
    while any(reached.get(t, 0) < s for t, s in want.items()):
        (e,) = await read_events(ws, 1, timeout)
        seen.append(e)
        reached[e["task_id"]] = max(reached.get(e["task_id"], 0), e["seq"])


async def check_output_pieces(api: Api, session, server: Server) -> None:
    ws, _ = await ws_connect(session, server, {})
    task = await api.dev("POST", "/_dev/task?status=running")
    # Three writes (a URL holds one): enough cuts that each marker is cut somewhere.
    for _ in range(3):
        written = await api.dev("POST", "/_dev/hostile/output_text?" + urlencode({"task_id": task["id"], "text": STREAMED}))
        check(written["events"] > len(STREAMED) // PIECES[1], f"output_text is cut into pieces ({written})")
    burst = await api.dev("POST", "/_dev/burst?count=300")
    check(burst["count"] > burst["lines"] == 300 and burst["last_seq"] == burst["count"] + 1,
          f"a burst of 300 lines is more events, each line cut ({burst})")
    tick = await api.dev("POST", "/_dev/tick?count=60")
    seen: list[dict] = []
    await ws_until(ws, {task["id"]: written["seq"], burst["task_id"]: burst["last_seq"]}, seen)
    # The burst's last event came before any of the tick's.
    seen += await read_events(ws, tick["events"])
    await ws.close()
    by_task: dict[str, list[dict]] = {}
    for e in seen:
        by_task.setdefault(e["task_id"], []).append(e)
    for task_id, events in by_task.items():
        stored = await rest_output(api, task_id)
        check(stored[-len(events):] == events, f"REST /output serves the pieces the WebSocket sent ({task_id})")
        check_pieces([e["data"]["text"] for e in events if e["type"] == "task.output"], f"output of {task_id}")
    mine = [e["data"]["text"] for e in by_task[task["id"]] if 1 < e["seq"] <= written["seq"]]
    check("".join(mine) == STREAMED * 3, "the pieces reassemble to the text written")
    cuts, at = set(), 0
    for piece in mine[:-1]:
        at += len(piece)
        cuts.add(at)
    split = {m for m in MARKERS if any(i < c < i + len(m) for c in cuts for i in _find_all(STREAMED * 3, m))}
    check(split == set(MARKERS), f"cuts fall inside every kind of marker (split: {sorted(split)})")
    ok(f"--output-pieces 1,40: {len(mine)} pieces of {3 * len(STREAMED)} characters reassemble; cuts inside "
       f"words, **, `, table rows, newline runs, SGR and CJK; burst and tick cut too; REST == WebSocket")

    whole = await api.dev("POST", "/_dev/hostile/output_text?" + urlencode(
        {"task_id": task["id"], "text": STREAMED, "whole": "true"}))
    check(whole["events"] == 1, f"whole=true writes one event ({whole})")
    whole_burst = await api.dev("POST", "/_dev/burst?count=50&whole=true")
    check(whole_burst["count"] == 50, f"burst whole=true: one event a line ({whole_burst})")
    seeded = [t for t in (await api.get("/api/v1/mesh/tasks?status=completed&limit=1000"))["items"]
              if "seed" in t.get("tags", [])]
    history = [e["data"]["text"] for e in await truth(api, seeded[0]["id"]) if e["type"] == "task.output"]
    check_pieces(history, "seeded history")
    check("<COMPLETION_GATE>" in "".join(history), "seeded history reassembles")
    ok("whole=true opts one call out; the seeded history is in pieces too")


def _find_all(text: str, needle: str) -> list[int]:
    return [i for i in range(len(text)) if text.startswith(needle, i)]


async def check_clock_offset(api: Api, session, server: Server) -> None:
    def near_server_now(t: float, what: str) -> None:
        check(abs(t - (time.time() + OFFSET)) < CLOCK_SLACK_S, f"{what} is on the server's clock ({t - time.time():.0f} s off)")

    clock = await api.dev("GET", "/_dev/clock")
    check(clock["offset_s"] == OFFSET, f"/_dev/clock says the offset ({clock})")
    near_server_now(stamp(clock["now"]), "/_dev/clock now")
    for path, key in (("/health", None), ("/api/v1/mesh/daemons", "default"), ("/_dev/clock", None)):
        headers = {} if key is None else {"x-makima-api-key": api.key}
        async with session.get(server.url + path, headers=headers) as r:
            near_server_now(http_stamp(r.headers["Date"]), f"the Date header of {path}")
    raw, status = await RawWS.connect(server.port)
    raw.close()
    date = re.search(rb"\r\ndate: ([^\r]+)\r\n", raw.head.lower())
    check(status == 101 and date is not None, "the WebSocket upgrade has a Date header")
    near_server_now(http_stamp(date.group(1).decode()), "the Date header of the WebSocket upgrade")

    task = await api.dev("POST", "/_dev/task?status=running")
    event = (await truth(api, task["id"]))[0]
    for value, what in ((event["ts"], "an event's ts"), (task["created_at"], "created_at"),
                        (task["updated_at"], "updated_at")):
        near_server_now(stamp(value), what)
    times: list[str] = []
    sessions = await api.get("/api/v1/listen/sessions")
    for path in ("/api/v1/mesh/daemons", "/api/v1/mesh/tasks?limit=1000", "/api/v1/contracts", "/api/v1/directives",
                 "/api/v1/auth/api-keys", f"/api/v1/listen/sessions/{sessions['items'][0]['id']}"):
        walk_times(await api.get(path), times)
    walk_times(sessions, times)
    server_now = time.time() + OFFSET
    late = [t for t in times if stamp(t) > server_now + CLOCK_SLACK_S]
    check(not late, f"no timestamp after the server's now (a real-clock stamp would be an hour ahead: {late[:3]})")
    newest = max(stamp(t) for t in times)
    check(abs(newest - server_now) < CLOCK_SLACK_S, "the newest timestamp is the server's now")
    ok(f"--clock-offset {OFFSET}: Date headers (REST, health, /_dev, WS upgrade), events, tasks, heartbeats, "
       f"questions, listen times and keys all on the server's clock ({len(times)} timestamps)")


async def check_live_control(api: Api, session, server: Server) -> None:
    ws, _ = await ws_connect(session, server, {})
    listed = {t["id"] for t in (await api.get("/api/v1/mesh/tasks?limit=1000"))["items"]}
    live = await api.dev("POST", "/_dev/task?live=true&items=3")
    check(live["id"] not in listed and live["status"] == "running" and live["last_seq"] >= 4,
          f"a live task streams at once ({live['last_seq']} events)")
    seen: list[dict] = []
    await ws_until(ws, {live["id"]: live["last_seq"]}, seen)
    await ws.close()
    mine = [e for e in seen if e["task_id"] == live["id"]]
    check(mine[0]["seq"] == 1 and mine[0]["data"] == {"status": "running", "previous": "queued"}
          and mine[1]["type"] == "task.output", "its first events: running, then output")
    check((await api.get(f"/api/v1/mesh/tasks/{live['id']}"))["id"] == live["id"], "GET /mesh/tasks/{id} has it")
    later = {t["id"] for t in (await api.get("/api/v1/mesh/tasks?status=running"))["items"]}
    check(live["id"] in later, "a later list read holds it")
    await api.dev("POST", "/_dev/task?live=true&status=queued", expect=400)
    ok("/_dev/task?live=true: events for an id no list held, fetchable at once, in later lists")


async def check_live_simulation(api: Api, session, server: Server) -> None:
    ws, _ = await ws_connect(session, server, {})
    listed = {t["id"] for t in (await api.get("/api/v1/mesh/tasks?limit=1000"))["items"]}
    first: dict[str, dict] = {}
    longest = 0
    for _ in range(100_000):
        (e,) = await read_events(ws, 1, timeout=30)
        if e["type"] == "task.output":
            longest = max(longest, len(e["data"]["text"]))
        if e["task_id"] in listed:
            continue
        first.setdefault(e["task_id"], e)
        born = first[e["task_id"]]
        if born["seq"] == 1 and born["data"].get("status") == "running" and e["type"] == "task.output":
            break
    else:
        check(False, "a live task within 100,000 events")
    await ws.close()
    check((await api.get(f"/api/v1/mesh/tasks/{e['task_id']}"))["status"] in ("running", "completed", "failed"),
          "the live task is fetchable")
    check(0 < longest <= 40, f"output in pieces of at most 40 characters (longest {longest})")
    ok("by default the simulation streams output in pieces and starts tasks running and streaming before "
       "any list holds them")


async def check_realistic(session, workdir: str, servers: list) -> None:
    flags = ("--rate", "0", "--test-controls", "--output-pieces", "1,40", "--clock-offset", str(OFFSET))
    s6 = await Server(workdir, "s6", os.path.join(workdir, "real.db"), *flags).start()
    servers.append(s6)
    api = Api(session, s6)
    await check_output_pieces(api, session, s6)
    await check_clock_offset(api, session, s6)
    await check_live_control(api, session, s6)
    again = await Server(workdir, "s6b", os.path.join(workdir, "real2.db"), *flags).start()
    servers.append(again)
    seeded = [t["id"] for t in (await api.get("/api/v1/mesh/tasks?limit=1000"))["items"] if "seed" in t.get("tags", [])]
    def content(events: list[dict]) -> list[tuple]:
        return [(e["event_id"], e["seq"], e["type"], e["data"]) for e in events]

    # s6 has appended to some seeded tasks since; their seeded history is the common part.
    for task_id in seeded:
        fresh = content(await truth(Api(session, again), task_id))
        check(content(await truth(api, task_id))[:len(fresh)] == fresh, f"same seed, same pieces ({task_id})")
    check(await s6.stop() == 0 and await again.stop() == 0, "s6 exits 0")
    ok("same seed and flags: the same pieces")

    # The defaults: output in pieces of 1..40 and tasks born live.
    s7 = await Server(workdir, "s7", os.path.join(workdir, "live.db"), "--rate", "40").start()
    servers.append(s7)
    await check_live_simulation(Api(session, s7), session, s7)
    check(await s7.stop() == 0, "s7 exits 0")


async def main(keep: bool) -> int:
    workdir = tempfile.mkdtemp(prefix="makima-selfcheck-")
    db = os.path.join(workdir, "state.db")
    servers: list[Server] = []
    began = time.monotonic()
    rotated = ""
    try:
        async with aiohttp.ClientSession() as session:
            s1 = await Server(workdir, "s1", db, "--rate", "0", "--test-controls").start()
            servers.append(s1)
            api = Api(session, s1)
            ctx = await check_basics(api, s1)
            await check_output(api, ctx["tasks"])
            await check_resync(api, session, s1, ctx["running"])
            await check_controls(api, session, s1, ctx)
            await check_hostile(api, session, s1)
            rotated = await check_keys(api)
            api.key = rotated
            burst = await check_burst(api, session, s1)
            next_id = (await api.dev("GET", "/_dev/seeded"))["next_event_id"]

            busy = await asyncio.create_subprocess_exec(
                sys.executable, SERVER, "--port", str(s1.port), "--db", os.path.join(workdir, "busy.db"),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(busy.communicate(), 20)
            check(busy.returncode == 2 and b"already in use" in err and not out, "busy port: clear error, exit 2")
            check(await s1.stop() == 0, "SIGTERM: clean exit 0")
            ok("busy port refused clearly; SIGTERM exits 0")

            s2 = await Server(workdir, "s2", db, "--rate", "0").start()
            servers.append(s2)
            api = Api(session, s2, rotated)
            await api.dev("GET", "/_dev/seeded", expect=404)
            await api.get("/api/v1/mesh/daemons", key=KEY, expect=401)
            page = await api.get(f"/api/v1/mesh/tasks/{burst['task_id']}/output?after_seq={burst['last_seq'] - 1}")
            check(page["last_seq"] == burst["last_seq"], "events survive a restart")
            check(await s2.stop() == 0, "s2 exits 0")
            ok("restart without --test-controls: /_dev is 404; rotated key persisted; events kept")

            s3 = await Server(workdir, "s3", db, "--rate", "0", "--test-controls", "--clock-skew", "-3600",
                              "--output-pieces", "0").start()
            servers.append(s3)
            api = Api(session, s3, rotated)
            more = await api.dev("POST", f"/_dev/burst?task_id={burst['task_id']}&count=5")
            check(more["lines"] == more["count"] == 5, f"--output-pieces 0: one event a line ({more})")
            check(more["last_seq"] == burst["last_seq"] + 5, "seqs continue after a restart")
            events = (await truth(api, burst["task_id"]))[-more["count"]:]
            check(events[0]["event_id"] >= next_id and events[0]["seq"] == burst["last_seq"] + 1,
                  f"event ids continue after a restart ({events[0]['event_id']} >= {next_id})")
            stamped = datetime.fromisoformat(events[-1]["ts"].replace("Z", "+00:00")).timestamp()
            check(3590 < time.time() - stamped < 3610, f"--clock-skew -3600 stamps events an hour behind ({events[-1]['ts']})")
            async with session.delete(s3.url + "/api/v1/auth/api-keys", headers={"x-makima-api-key": rotated}) as r:
                check(r.status == 204, "DELETE /auth/api-keys → 204")
            await api.get("/api/v1/mesh/daemons", expect=401)
            check(await s3.stop() == 0, "s3 exits 0")
            ok("restart on the same db continues event ids and seqs; DELETE revokes the key; --output-pieces 0 "
               "writes whole lines")

            s4 = await Server(workdir, "s4", os.path.join(workdir, "sim.db"), "--rate", "40").start()
            servers.append(s4)
            api = Api(session, s4)
            ws, _ = await ws_connect(session, s4, {})
            live = await read_events(ws, 20, timeout=5)
            await ws.close()
            check(all(e["seq"] >= 1 for e in live), "simulated events")
            first = {c["id"] for c in ctx["tasks"] if "seed" in c.get("tags", [])}
            again = {t["id"] for t in (await api.get("/api/v1/mesh/tasks?limit=1000"))["items"] if "seed" in t.get("tags", [])}
            check(first == again, "same seed, same seeded task ids")
            check(await s4.stop() == 0, "s4 exits 0")
            ok("--rate 40 streams simulated events with no ticks; the seed is deterministic")

            s5 = await Server(workdir, "s5", os.path.join(workdir, "scale.db"), "--rate", "0", "--test-controls",
                              "--seed-scale", "2500,120").start()
            servers.append(s5)
            await check_scale(Api(session, s5))
            check(await s5.stop() == 0, "s5 exits 0")

            await check_realistic(session, workdir, servers)

            refuse = await asyncio.create_subprocess_exec(sys.executable, SERVER, "--host", "0.0.0.0", "--test-controls",
                                                          stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(refuse.communicate(), 20)
            check(refuse.returncode == 2 and b"refusing" in err and not out, "test controls refused on 0.0.0.0")
            ok("--test-controls refused on a non-loopback host")

        logs = b"".join(open(s.log_path, "rb").read() for s in servers)
        check(KEY.encode() not in logs and rotated.encode() not in logs, "no API key in the logs")
        check(b"mk_\xe2\x80\xa6" in logs, "masked keys in the logs")
        ok(f"no API key in {len(logs)} bytes of server logs")
        print(f"selfcheck: all passed in {time.monotonic() - began:.1f} s", flush=True)
        return 0
    except (Failure, AssertionError, asyncio.TimeoutError, aiohttp.ClientError, OSError) as e:
        print(f"FAIL {type(e).__name__}: {e}", file=sys.stderr, flush=True)
        for s in servers:
            if os.path.exists(s.log_path):
                tail = open(s.log_path, "rb").read()[-3000:].decode("utf-8", "replace")
                print(f"--- {s.log_path} (tail) ---\n{tail}", file=sys.stderr)
        return 1
    finally:
        for s in servers:
            if s.proc and s.proc.returncode is None:
                s.proc.kill()
                await s.proc.wait()
        if keep:
            print(f"selfcheck: kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main("--keep" in sys.argv[1:])))
