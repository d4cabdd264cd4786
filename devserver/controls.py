"""Test controls under /_dev/ (only with --test-controls, only from loopback peers; the
gate is in middleware.py). Tests drive the mesh and inject faults through these."""
from __future__ import annotations

import asyncio
import json
import time
from random import Random

from aiohttp import WSMsgType, web

import hostile
import stream
import textgen
import util
import views
from faults import FaultState
from responses import BadRequest, bool_param, int_param, json_response, raw_json, whole_param
from mesh import LIVE_FIRST_ITEMS, MAX_LIVE_FIRST_ITEMS, NotFound
from util import dumps, rfc3339

HUGE_BYTES = 10 * 1024 * 1024
MALFORMED_TASK = "_dev_malformed"
MYSTERY_TASK = "_dev_mystery"


def _status_param(request: web.Request, name: str, default: int) -> int:
    status = int_param(request, name, default)
    if not 100 <= status <= 599:
        raise BadRequest(f"{name} must be an HTTP status (100-599)")
    return status


def _required(request: web.Request, name: str) -> str:
    value = request.query.get(name)
    if not value:
        raise BadRequest(f"{name} is required")
    return value


# ---- faults -------------------------------------------------------------------------

async def drop_ws(request: web.Request) -> web.Response:
    return json_response({"dropped": request.app["hub"].drop_all()})


async def fail(request: web.Request) -> web.Response:
    faults: FaultState = request.app["faults"]
    faults.fail_count = max(0, int_param(request, "count", 1))
    faults.fail_status = _status_param(request, "status", 500)
    faults.fail_retry_after = request.query.get("retry_after") or None
    return json_response({"count": faults.fail_count, "status": faults.fail_status,
                          "retry_after": faults.fail_retry_after})


async def latency(request: web.Request) -> web.Response:
    faults: FaultState = request.app["faults"]
    # Up to an hour: a test holds a request for as long as it runs (a server that never answers).
    faults.latency_ms = max(0, min(int_param(request, "ms", 0), 3_600_000))
    return json_response({"ms": faults.latency_ms})


async def unauthorized(request: web.Request) -> web.Response:
    faults: FaultState = request.app["faults"]
    faults.unauthorized = bool_param(request, "on")
    return json_response({"on": faults.unauthorized})


async def ws_reject(request: web.Request) -> web.Response:
    faults: FaultState = request.app["faults"]
    faults.ws_reject_status = _status_param(request, "status", 503)
    faults.ws_reject_count = max(0, int_param(request, "count", 1))
    faults.ws_reject_retry_after = request.query.get("retry_after") or None
    return json_response({"status": faults.ws_reject_status, "count": faults.ws_reject_count,
                          "retry_after": faults.ws_reject_retry_after})


async def reset_faults(request: web.Request) -> web.Response:
    request.app["faults"].reset()
    return json_response({"reset": True})


async def malformed(request: web.Request) -> web.Response:
    kind = _required(request, "kind")
    store, hub = request.app["store"], request.app["hub"]
    now = rfc3339(util.now(), "us")
    if kind == "truncated":
        whole = dumps({"event_id": store.take_event_id(), "task_id": MALFORMED_TASK, "seq": 1,
                       "type": "task.output", "ts": now, "data": {"text": "this frame is cut off", "stream": "assistant"}})
        payload, opcode = whole[: len(whole) // 2].encode(), WSMsgType.TEXT
    elif kind == "wrong_types":
        payload = dumps({"event_id": store.take_event_id(), "task_id": MALFORMED_TASK, "seq": "x",
                         "type": "task.output", "ts": 1700000000,
                         "data": {"text": ["not", "a", "string"], "stream": 7}}).encode()
        opcode = WSMsgType.TEXT
    elif kind == "unknown_type":
        seq = int(store.meta("mystery_seq", "0")) + 1
        store.set_meta("mystery_seq", seq)
        payload = dumps({"event_id": store.take_event_id(), "task_id": MYSTERY_TASK, "seq": seq,
                         "type": "task.mystery", "ts": now,
                         "data": {"note": "an event type this client has never seen", "nested": {"n": seq}}}).encode()
        opcode = WSMsgType.TEXT
    elif kind == "huge":
        head = b'{"type":"dev.huge","note":"a 10 MiB frame that is not an event","padding":"'
        tail = b'"}'
        payload = head + b"x" * (HUGE_BYTES - len(head) - len(tail)) + tail
        opcode = WSMsgType.TEXT
    elif kind == "invalid_utf8":
        payload, opcode = b'{"type":"dev.invalid_utf8","text":"\xff\xfe\xc3\x28 bad bytes"}', WSMsgType.TEXT
    elif kind == "binary":
        payload, opcode = b"\x00\x01\x02makima-binary-frame\xff\xfe", WSMsgType.BINARY
    else:
        raise BadRequest("kind must be one of truncated, wrong_types, unknown_type, huge, invalid_utf8, binary")
    sent = hub.send_raw(payload, opcode)
    return json_response({"kind": kind, "sent_to": sent, "bytes": len(payload),
                          "opcode": "text" if opcode == WSMsgType.TEXT else "binary"})


# ---- mesh driving -----------------------------------------------------------------------

async def burst(request: web.Request) -> web.Response:
    count = int_param(request, "count", 1000)
    started = time.monotonic()
    task_id, last_seq, events = await request.app["mesh"].burst(request.query.get("task_id") or None, count,
                                                                whole_param(request))
    return json_response({"task_id": task_id, "last_seq": last_seq, "count": events, "lines": max(0, count),
                          "elapsed_ms": round((time.monotonic() - started) * 1000)})


async def burst_prepare(request: web.Request) -> web.Response:
    count = int_param(request, "count", 100_000)
    tasks = int_param(request, "tasks", 1)
    started = time.monotonic()
    ids = [t for t in request.query.get("task_ids", "").split(",") if t]
    try:
        result = request.app["mesh"].prepare_burst(count, tasks, ids or None, whole_param(request))
    except NotFound as e:
        raise BadRequest(f"unknown task {e}") from None
    result["elapsed_ms"] = round((time.monotonic() - started) * 1000)
    return json_response(result)


async def burst_send(request: web.Request) -> web.Response:
    try:
        sent = request.app["mesh"].send_burst(request.query.get("burst_id", ""))
    except KeyError:
        raise BadRequest("unknown burst_id (prepare one with /_dev/burst_prepare)") from None
    return json_response({"sent_to": sent})


async def tick(request: web.Request) -> web.Response:
    count = max(0, min(int_param(request, "count", 1), 100_000))
    with request.app["store"].whole_output(whole_param(request)):
        events = request.app["sim"].tick(count)
    return json_response({"steps": count, "events": events, "last_event_id": request.app["store"].next_event_id - 1})


async def new_task(request: web.Request) -> web.Response:
    store = request.app["store"]
    status = request.query.get("status", "running").lower()
    contract_id = request.query.get("contract_id") or None
    if contract_id and not store.one("SELECT 1 FROM contracts WHERE id=?", (contract_id,)):
        raise NotFound()
    mesh = request.app["mesh"]
    fields = dict(contract_id=contract_id, title=request.query.get("title") or None,
                  daemon_id=request.query.get("daemon_id") or None, parent_id=request.query.get("parent_id") or None,
                  # Any id at all, for tests of what a hostile server can send.
                  task_id=request.query.get("id") or None)
    if "live" in request.query and bool_param(request, "live"):
        if status != "running":
            raise BadRequest("a live task starts running (leave status out)")
        items = max(0, min(int_param(request, "items", LIVE_FIRST_ITEMS), MAX_LIVE_FIRST_ITEMS))
        with request.app["store"].whole_output(whole_param(request)):
            row = mesh.create_live_task(items, **fields)
    else:
        row = mesh.create_task(status, **fields)
    return json_response(views.task(row))


async def task_status(request: web.Request) -> web.Response:
    mesh = request.app["mesh"]
    task_id = request.match_info["id"]
    event = mesh.set_status(task_id, _required(request, "status").lower(), request.query.get("reason") or None)
    return json_response({"task": views.task(mesh.task_row(task_id)), "event": event})


async def question(request: web.Request) -> web.Response:
    store, mesh = request.app["store"], request.app["mesh"]
    directive_id = request.query.get("directive_id")
    if not directive_id:
        row = store.one("SELECT id FROM directives ORDER BY question IS NOT NULL, ord LIMIT 1")
        if row is None:
            raise NotFound()
        directive_id = row["id"]
    n = int(store.meta("dev_questions", "0")) + 1
    store.set_meta("dev_questions", n)
    r = Random(f"{mesh.seed}:devquestion:{n}")
    text = request.query.get("text") or textgen.question(r)
    event = mesh.raise_question(directive_id, request.query.get("task_id") or None, text, r)
    d = store.one("SELECT * FROM directives WHERE id=?", (directive_id,))
    return json_response({"directive": views.directive(d), "event": event})


DAEMON_STATUSES = ("online", "busy", "offline")


async def daemon_status(request: web.Request) -> web.Response:
    """Sets a daemon's status (and optionally how long ago its last heartbeat was) without a word
    on the WebSocket, as a real mesh does: only a fetch of /mesh/daemons shows it."""
    store = request.app["store"]
    daemon_id = request.match_info["id"]
    status = _required(request, "status").lower()
    if status not in DAEMON_STATUSES:
        raise BadRequest(f"status must be one of {', '.join(DAEMON_STATUSES)}")
    if store.one("SELECT 1 FROM daemons WHERE id=?", (daemon_id,)) is None:
        raise NotFound()
    beat = request.query.get("heartbeat_ago")
    if beat is not None:
        ago = max(0, min(int_param(request, "heartbeat_ago", 0), 10 * 365 * 86_400))
        store.execute("UPDATE daemons SET status=?, last_heartbeat=? WHERE id=?",
                      (status, util.now() - ago, daemon_id))
    else:
        store.execute("UPDATE daemons SET status=? WHERE id=?", (status, daemon_id))
    row = store.one("SELECT * FROM daemons WHERE id=?", (daemon_id,))
    return json_response(views.daemon(row, views.running_by_daemon(store).get(daemon_id, 0)))


# ---- truth for tests --------------------------------------------------------------------

def _task_with_events(request: web.Request) -> str:
    """The query's task_id, when the server has events for that task; a 404 otherwise."""
    task_id = _required(request, "task_id")
    if task_id not in request.app["store"].last_seq:
        raise NotFound()
    return task_id


async def events(request: web.Request) -> web.Response:
    task_id = _task_with_events(request)
    rows = request.app["store"].all("SELECT frame FROM events WHERE task_id=? ORDER BY seq", (task_id,))
    return raw_json('{"items":[' + ",".join(r[0] for r in rows) + "]}")


async def output(request: web.Request) -> web.Response:
    task_id = _task_with_events(request)
    rows = request.app["store"].all(
        "SELECT frame FROM events WHERE task_id=? AND type='task.output' ORDER BY seq", (task_id,))
    text = "".join(json.loads(r[0])["data"]["text"] for r in rows)
    return web.Response(text=text, content_type="text/plain", charset="utf-8")


async def seeded(request: web.Request) -> web.Response:
    store = request.app["store"]

    def count(sql: str) -> int:
        return store.one(sql)[0]

    latest = store.one("SELECT * FROM listen_sessions ORDER BY started_at DESC LIMIT 1")
    latest_view = None
    if latest is not None:
        v = views.listen_session(latest, False)
        latest_view = {"id": v["id"], "title": v["title"], "started_at": v["started_at"]}
    return json_response({
        "daemons_online": count("SELECT COUNT(*) FROM daemons WHERE status IN ('online','busy')"),
        "daemons_offline": count("SELECT COUNT(*) FROM daemons WHERE status NOT IN ('online','busy')"),
        "running_tasks": count("SELECT COUNT(*) FROM tasks WHERE status='running'"),
        "active_contracts": count("SELECT COUNT(*) FROM contracts WHERE status='active'"),
        "pending_questions": count("SELECT COUNT(*) FROM directives WHERE question IS NOT NULL"),
        "latest_listen_session": latest_view,
        "tasks": count("SELECT COUNT(*) FROM tasks"),
        "events": count("SELECT COUNT(*) FROM events"),
        "next_event_id": store.next_event_id,
        "seed": int(store.meta("seed", "0")),
        "subscribers": len(request.app["hub"].subscribers),
    })


async def clock(request: web.Request) -> web.Response:
    """The server's clock as it stamps things (real time + --clock-offset)."""
    t = util.now()
    return json_response({"now": rfc3339(t, "us"), "epoch_s": t, "offset_s": util.clock_offset(),
                          "event_skew_s": request.app["store"].clock_skew})


async def requests(request: web.Request) -> web.Response:
    log = request.app["requests"]
    return json_response({"total": log.total, "recent": list(log.recent)})


async def requests_reset(request: web.Request) -> web.Response:
    request.app["requests"].reset()
    return json_response({"total": 0})


async def stream_prepare(request: web.Request) -> web.Response:
    """A paced stream's tasks, made now (so a client can open one first); sent by stream_start."""
    s = stream.PacedStream(request.app["mesh"], int_param(request, "rate", 1000), int_param(request, "seconds", 30),
                           int_param(request, "tasks", 20), request.query.get("shape", "log"))
    streams = request.app.setdefault("streams", {})
    stream_id = f"s{len(streams) + 1}"
    streams[stream_id] = s
    return json_response({"stream_id": stream_id, "task_ids": s.ids, "rate": s.rate, "seconds": s.seconds})


def _stream(request: web.Request) -> stream.PacedStream:
    found = request.app.get("streams", {}).get(request.query.get("stream_id", ""))
    if found is None:
        raise BadRequest("unknown stream_id (prepare one with /_dev/stream_prepare)")
    return found


async def stream_start(request: web.Request) -> web.Response:
    s = _stream(request)
    if not hasattr(s, "job"):
        s.job = asyncio.get_running_loop().create_task(s.run())
    return json_response({"started": True})


async def stream_state(request: web.Request) -> web.Response:
    s = _stream(request)
    return json_response({"sent": s.sent, "done": s.done})


def add_routes(app: web.Application) -> None:
    r = app.router
    r.add_post("/_dev/drop_ws", drop_ws)
    r.add_post("/_dev/fail", fail)
    r.add_post("/_dev/latency", latency)
    r.add_post("/_dev/malformed", malformed)
    r.add_post("/_dev/burst", burst)
    r.add_post("/_dev/burst_prepare", burst_prepare)
    r.add_post("/_dev/burst_send", burst_send)
    r.add_post("/_dev/stream_prepare", stream_prepare)
    r.add_post("/_dev/stream_start", stream_start)
    r.add_get("/_dev/stream", stream_state)
    r.add_post("/_dev/tick", tick)
    r.add_post("/_dev/task", new_task)
    r.add_post("/_dev/task/{id}/status", task_status)
    r.add_post("/_dev/question", question)
    r.add_post("/_dev/daemon/{id}/status", daemon_status)
    r.add_get("/_dev/events", events)
    r.add_get("/_dev/output", output)
    r.add_get("/_dev/seeded", seeded)
    r.add_get("/_dev/clock", clock)
    r.add_get("/_dev/requests", requests)
    r.add_post("/_dev/requests/reset", requests_reset)
    r.add_post("/_dev/unauthorized", unauthorized)
    r.add_post("/_dev/ws_reject", ws_reject)
    r.add_post("/_dev/reset", reset_faults)
    hostile.add_routes(app)

