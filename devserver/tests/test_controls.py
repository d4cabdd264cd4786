"""Test controls under /_dev: cut connections, malformed frames, injected failures, latency,
unauthorized, refused upgrades, driving tasks, questions and daemons, tasks born live, and the
loopback guard."""
from __future__ import annotations

import asyncio
import json
import time

import pytest

import util
from harness import RawWS, not_json, not_utf8, read_events, stamp, until, ws_until


async def test_drop_ws_cuts_without_a_close_frame(api, server):
    raw, status = await RawWS.connect(server.port)
    assert status == 101
    await raw.resync({})
    assert (await api.dev("POST", "/_dev/drop_ws"))["dropped"] >= 1
    frames = []
    while (op := (await raw.frame())[0]) != -1:
        frames.append(op)
    assert 0x8 not in frames, "no close frame"


MALFORMED = {
    "truncated": lambda op, p: op == 1 and not_json(p),
    "wrong_types": lambda op, p: op == 1 and json.loads(p)["seq"] == "x",
    "unknown_type": lambda op, p: (op == 1 and json.loads(p)["type"] == "task.mystery"
                                   and json.loads(p)["task_id"] == "_dev_mystery" and json.loads(p)["seq"] >= 1),
    "huge": lambda op, p: op == 1 and len(p) == 10 * 1024 * 1024 and json.loads(p)["type"] == "dev.huge",
    "invalid_utf8": lambda op, p: op == 1 and not_utf8(p),
    "binary": lambda op, p: op == 2 and len(p) > 0,
}


@pytest.mark.parametrize("kind", MALFORMED)
async def test_malformed_frame_as_documented_then_events_flow(api, server, kind):
    raw, _ = await RawWS.connect(server.port)
    await raw.resync({})
    assert (await api.dev("POST", f"/_dev/malformed?kind={kind}"))["sent_to"] == 1
    op, payload = await raw.frame()
    assert MALFORMED[kind](op, payload), f"opcode {op}, {payload[:60]!r}"
    task = await api.dev("POST", "/_dev/task?status=running")
    op, payload = await raw.frame()
    assert op == 1 and json.loads(payload)["task_id"] == task["id"], "events still flow after it"
    raw.close()


async def test_malformed_unknown_kind_is_400(api):
    await api.dev("POST", "/_dev/malformed?kind=nonsense", expect=400)


async def test_fail_answers_the_next_requests_then_normal(api):
    await api.dev("POST", "/_dev/fail?count=2&status=503")
    for _ in range(2):
        assert await api.get("/api/v1/mesh/daemons", expect=503) == {"error": "injected failure"}
    await api.get("/api/v1/mesh/daemons")


async def test_latency_holds_api_requests_until_it_is_ended(api):
    # Ten minutes: the request is still held whenever the test looks.
    await api.dev("POST", "/_dev/latency?ms=600000")
    await api.dev("POST", "/_dev/requests/reset")
    held = asyncio.create_task(api.get("/api/v1/contracts"))

    async def arrived() -> bool:
        return (await api.dev("GET", "/_dev/requests"))["recent"] == ["GET /api/v1/contracts"]

    await until(arrived, "the held request reaches the server")
    await api.dev("POST", "/_dev/latency?ms=0")
    await api.get("/api/v1/contracts")
    assert not held.done(), "the request sent under latency is still held after a later one was answered"
    held.cancel()


async def test_unauthorized_applies_to_rest_and_the_upgrade_not_health(api, server):
    await api.dev("POST", "/_dev/unauthorized?on=true")
    await api.get("/api/v1/mesh/daemons", expect=401)
    raw, status = await RawWS.connect(server.port)
    raw.close()
    assert status == 401, "the WS upgrade too"
    await api.get("/health", key=None)
    await api.dev("POST", "/_dev/unauthorized?on=false")
    await api.get("/api/v1/mesh/daemons")


async def test_ws_reject_refuses_exactly_the_next_upgrade(api, server):
    await api.dev("POST", "/_dev/ws_reject?status=503&count=1")
    first, refused = await RawWS.connect(server.port)
    first.close()
    second, accepted = await RawWS.connect(server.port)
    second.close()
    assert (refused, accepted) == (503, 101)


async def test_ws_reject_sends_retry_after_when_asked(api, server):
    await api.dev("POST", "/_dev/ws_reject?status=429&count=1&retry_after=7")
    refused, status = await RawWS.connect(server.port)
    refused.close()
    assert status == 429 and b"\r\nretry-after: 7\r\n" in refused.head.lower()


async def test_task_status_and_question_controls_emit_their_events(api):
    ws, _ = await api.ws({})
    task = await api.dev("POST", "/_dev/task?status=running")
    assert task["status"] == "running"
    changed = await api.dev("POST", f"/_dev/task/{task['id']}/status?status=completed")
    assert changed["event"]["data"] == {"status": "completed", "previous": "running"}
    assert (await api.get(f"/api/v1/mesh/tasks/{task['id']}"))["status"] == "completed"
    directive = next(d for d in (await api.get("/api/v1/directives"))["items"] if not d["has_pending_question"])
    asked = await api.dev("POST", f"/_dev/question?directive_id={directive['id']}")
    assert asked["event"]["type"] == "task.supervisor_question" and asked["directive"]["has_pending_question"]
    pending = await api.get("/api/v1/directives?pending=true")
    assert directive["id"] in {d["id"] for d in pending["items"]}, "the directive is now pending"
    got = await read_events(ws, 3)
    assert [e["type"] for e in got] == ["task.status", "task.status", "task.supervisor_question"]
    await ws.close()
    await api.dev("POST", "/_dev/task/nope/status?status=completed", expect=404)


async def test_daemon_status_is_seen_by_the_list_only(api):
    daemon = next(d for d in await api.get("/api/v1/mesh/daemons") if d["status"] == "online")
    ws, _ = await api.ws({})
    before = time.time()
    changed = await api.dev("POST", f"/_dev/daemon/{daemon['id']}/status?status=offline&heartbeat_ago=70")
    after = time.time()
    assert changed["id"] == daemon["id"] and changed["status"] == "offline"
    row = next(d for d in await api.get("/api/v1/mesh/daemons") if d["id"] == daemon["id"])
    beat = stamp(row["last_heartbeat"])
    assert row["status"] == "offline" and before - 71 <= beat <= after - 70, "offline, its heartbeat 70 s ago"
    # Frames on a connection keep their order: had the change said anything, it would come first.
    task = await api.dev("POST", "/_dev/task?status=running")
    (first,) = await read_events(ws, 1)
    assert first["task_id"] == task["id"], "a daemon's status change says nothing on the WebSocket"
    await ws.close()
    await api.dev("POST", f"/_dev/daemon/{daemon['id']}/status?status=online&heartbeat_ago=0")
    assert next(d for d in await api.get("/api/v1/mesh/daemons") if d["id"] == daemon["id"])["status"] == "online"
    await api.dev("POST", f"/_dev/daemon/{daemon['id']}/status?status=bogus", expect=400)
    await api.dev("POST", "/_dev/daemon/nope/status?status=online", expect=404)


async def test_a_live_task_streams_before_any_list_holds_it(api):
    ws, _ = await api.ws({})
    listed = {t["id"] for t in (await api.get("/api/v1/mesh/tasks?limit=1000"))["items"]}
    live = await api.dev("POST", "/_dev/task?live=true&items=3")
    assert live["id"] not in listed and live["status"] == "running" and live["last_seq"] >= 4, live
    seen: list[dict] = []
    await ws_until(ws, {live["id"]: live["last_seq"]}, seen)
    await ws.close()
    mine = [e for e in seen if e["task_id"] == live["id"]]
    assert mine[0]["seq"] == 1 and mine[0]["data"] == {"status": "running", "previous": "queued"}
    assert mine[1]["type"] == "task.output", "its first events: running, then output"
    assert (await api.get(f"/api/v1/mesh/tasks/{live['id']}"))["id"] == live["id"]
    later = {t["id"] for t in (await api.get("/api/v1/mesh/tasks?status=running"))["items"]}
    assert live["id"] in later, "a later list read holds it"


async def test_a_live_task_must_start_running(api):
    await api.dev("POST", "/_dev/task?live=true&status=queued", expect=400)


def test_dev_routes_answer_loopback_peers_only():
    assert util.is_loopback_peer("127.0.0.1") and util.is_loopback_peer("::1")
    assert util.is_loopback_peer("::ffff:127.0.0.1")
    assert not util.is_loopback_peer("192.168.1.5") and not util.is_loopback_peer(None)
