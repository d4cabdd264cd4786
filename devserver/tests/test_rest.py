"""REST under /api/v1 and /health on a freshly seeded mesh (seed 7): auth, shapes, the counts
the seed promises, filters, 404s, timestamps and /_dev/seeded."""
from __future__ import annotations

import re

import pytest

from harness import RFC3339, RawWS, walk_times

PROTECTED = ("/api/v1/mesh/daemons", "/api/v1/mesh/tasks", "/api/v1/contracts")


async def test_health_needs_no_key(api):
    h = await api.get("/health", key=None)
    assert h["status"] == "ok" and isinstance(h["version"], str)
    assert (await api.get("/api/v1/health", key=None))["status"] == "ok"


@pytest.mark.parametrize("path", PROTECTED)
async def test_no_key_or_a_wrong_key_is_401_unauthorized(api, path):
    assert await api.get(path, key=None, expect=401) == {"error": "unauthorized"}
    assert await api.get(path, key="mk_wrong_key_0000", expect=401) == {"error": "unauthorized"}


async def test_websocket_upgrade_without_a_key_is_401(server):
    raw, status = await RawWS.connect(server.port, key=None)
    raw.close()
    assert status == 401


async def test_daemons_are_a_bare_list_of_six(api):
    daemons = await api.get("/api/v1/mesh/daemons")
    assert isinstance(daemons, list) and len(daemons) == 6
    assert len([d for d in daemons if d["status"] in ("online", "busy")]) == 4
    assert all(d["hostname"].endswith(".mesh.local") for d in daemons)


async def test_tasks_are_wrapped_with_every_status(api):
    tasks = await api.get("/api/v1/mesh/tasks?limit=1000")
    assert isinstance(tasks, dict) and len(tasks["items"]) >= 30 and tasks["total"] == len(tasks["items"])
    statuses = {t["status"] for t in tasks["items"]}
    assert {"pending", "queued", "running", "completed", "failed", "cancelled"} <= statuses
    t0 = tasks["items"][0]
    assert (await api.get(f"/api/v1/mesh/tasks/{t0['id']}"))["id"] == t0["id"]


async def test_task_status_filter(api):
    running = await api.get("/api/v1/mesh/tasks?status=running")
    assert len(running["items"]) >= 3 and all(t["status"] == "running" for t in running["items"])


async def test_contracts_five_active_three_completed_two_archived(api):
    contracts = await api.get("/api/v1/contracts")
    by_status = {s: len([c for c in contracts["items"] if c["status"] == s]) for s in ("active", "completed", "archived")}
    assert by_status == {"active": 5, "completed": 3, "archived": 2}
    assert any(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", c["name"]) for c in contracts["items"]), "Japanese names"
    assert len((await api.get("/api/v1/contracts?status=archived"))["items"]) == 2


async def test_contract_detail_and_its_tasks(api):
    c0 = (await api.get("/api/v1/contracts"))["items"][0]
    detail = await api.get(f"/api/v1/contracts/{c0['id']}")
    assert detail["id"] == c0["id"] and "phase" in detail
    in_contract = await api.get(f"/api/v1/mesh/tasks?contract_id={c0['id']}")
    assert all(t["contract_id"] == c0["id"] for t in in_contract["items"])
    assert len(in_contract["items"]) == detail["task_count"]


async def test_directives_and_pending_questions(api):
    directives = await api.get("/api/v1/directives")
    pending = await api.get("/api/v1/directives?pending=true")
    assert len(directives["items"]) >= 3 and len(pending["items"]) >= 1
    assert all(d["has_pending_question"] and d["pending_question"]["text"] for d in pending["items"])


async def test_listen_sessions(api):
    sessions = await api.get("/api/v1/listen/sessions")
    assert len(sessions["items"]) >= 4
    latest = await api.get("/api/v1/listen/sessions?limit=1")
    assert [s["id"] for s in latest["items"]] == [sessions["items"][0]["id"]], "limit=1 is the latest"
    full = await api.get(f"/api/v1/listen/sessions/{sessions['items'][1]['id']}")
    assert len(full["transcript"]) >= 4 and all("text" in line for line in full["transcript"])


@pytest.mark.parametrize("path", ("/api/v1/mesh/tasks/nope", "/api/v1/mesh/tasks/nope/output", "/api/v1/contracts/nope",
                                  "/api/v1/listen/sessions/nope", "/api/v1/no/such/route"))
async def test_unknown_is_404_not_found(api, path):
    assert await api.get(path, expect=404) == {"error": "not found"}


async def test_a_bad_after_seq_is_400_for_a_known_task_only(api):
    t0 = (await api.get("/api/v1/mesh/tasks"))["items"][0]
    await api.get("/api/v1/mesh/tasks/x/output?after_seq=abc", expect=404)
    await api.get(f"/api/v1/mesh/tasks/{t0['id']}/output?after_seq=abc", expect=400)


async def test_every_timestamp_is_rfc3339_in_every_form(api):
    sessions = await api.get("/api/v1/listen/sessions")
    answers = [await api.get(p) for p in ("/api/v1/mesh/daemons", "/api/v1/mesh/tasks?limit=1000", "/api/v1/contracts",
                                           "/api/v1/directives")]
    answers += [sessions, await api.get(f"/api/v1/listen/sessions/{sessions['items'][1]['id']}")]
    times = walk_times(answers, [])
    assert times and all(RFC3339.match(t) for t in times), [t for t in times if not RFC3339.match(t)][:5]
    assert any("." in t for t in times) and any("." not in t for t in times), "with and without fractions"
    assert any(t.endswith("+09:00") for t in times), "one with an offset"


async def test_dev_seeded_agrees_with_rest(api):
    seeded = await api.dev("GET", "/_dev/seeded")
    running = await api.get("/api/v1/mesh/tasks?status=running&limit=1000")
    sessions = await api.get("/api/v1/listen/sessions")
    assert seeded["daemons_online"] == 4 and seeded["daemons_offline"] == 2 and seeded["active_contracts"] == 5
    assert seeded["pending_questions"] >= 1 and seeded["running_tasks"] == len(running["items"])
    assert seeded["latest_listen_session"]["id"] == sessions["items"][0]["id"]
