"""Hostile modes under /_dev/hostile (and Retry-After on injected failures): servers a client
must survive, each as documented, and /_dev/reset ending every one of them."""
from __future__ import annotations

import json

import pytest

from harness import KEY, RawWS, not_utf8

OUTPUT_PAGE = "/output?after_seq=5&limit=3"


async def test_fail_with_retry_after_sends_the_header(api):
    await api.dev("POST", "/_dev/fail?count=1&status=429&retry_after=7")
    async with api.session.get(api.base + "/api/v1/mesh/daemons", headers={"x-makima-api-key": KEY}) as r:
        assert r.status == 429 and r.headers.get("Retry-After") == "7"


async def burst_task(api) -> str:
    return (await api.dev("POST", "/_dev/burst?count=10"))["task_id"]


@pytest.mark.parametrize(("mode", "seqs"), [("normal", [6, 7, 8]), ("ignore_after_seq", [1, 2, 3]),
                                            ("skip_ahead&skip=3", [9, 10, 11])])
async def test_output_mode_pages(api, mode, seqs):
    task = await burst_task(api)
    await api.dev("POST", f"/_dev/hostile/output?mode={mode}")
    assert [e["seq"] for e in (await api.get(f"/api/v1/mesh/tasks/{task}{OUTPUT_PAGE}"))["items"]] == seqs


async def test_output_mode_empty_answers_any_task(api):
    await api.dev("POST", "/_dev/hostile/output?mode=empty")
    assert (await api.get("/api/v1/mesh/tasks/no-such-task/output"))["items"] == []


async def test_output_mode_normal_ends_a_mode(api):
    task = await burst_task(api)
    await api.dev("POST", "/_dev/hostile/output?mode=ignore_after_seq")
    await api.dev("POST", "/_dev/hostile/output?mode=bogus", expect=400)
    await api.dev("POST", "/_dev/hostile/output?mode=normal")
    assert [e["seq"] for e in (await api.get(f"/api/v1/mesh/tasks/{task}{OUTPUT_PAGE}"))["items"]] == [6, 7, 8]


async def test_absurd_seq_frame(api, server):
    raw, _ = await RawWS.connect(server.port)
    await raw.resync({})
    sent = await api.dev("POST", "/_dev/hostile/absurd_seq")
    op, payload = await raw.frame()
    raw.close()
    assert op == 1 and json.loads(payload)["seq"] == (1 << 63) - 1 and sent["sent_to"] == 1


async def test_gap_flood_withholds_one_stored_seq_per_task(api, server):
    raw, _ = await RawWS.connect(server.port)
    await raw.resync({})
    flood = await api.dev("POST", "/_dev/hostile/gap_flood?tasks=2&events=3")
    seen: dict[str, list[int]] = {}
    # Each task: every stored event but the withheld one (its lines may be several pieces each),
    # then an event of a new task to show nothing more came.
    marker = await api.dev("POST", "/_dev/task?status=running")
    while True:
        event = json.loads((await raw.frame())[1])
        if event["task_id"] == marker["id"]:
            break
        seen.setdefault(event["task_id"], []).append(event["seq"])
    raw.close()
    assert sorted(seen) == sorted(flood["tasks"])
    for task_id in flood["tasks"]:
        withheld = flood["withheld_seqs"][task_id]
        stored = [e["seq"] for e in await api.truth(task_id)]
        assert withheld in stored and withheld not in seen[task_id], f"{seen[task_id]} of {stored}"
        assert sorted(seen[task_id] + [withheld]) == stored, "every other stored event was sent"


async def poisoned_task(api) -> tuple[str, dict]:
    task = await burst_task(api)
    poisoned = await api.dev("POST", f"/_dev/hostile/poison?task_id={task}")
    return task, poisoned


async def test_poisoned_frame_live_is_not_utf8_and_rest_serves_the_stored_one(api, server):
    task = await burst_task(api)
    raw, _ = await RawWS.connect(server.port)
    await raw.resync({})
    poisoned = await api.dev("POST", f"/_dev/hostile/poison?task_id={task}")
    op, payload = await raw.frame()
    raw.close()
    assert op == 1 and not_utf8(payload) and b"POISON" not in payload
    page = await api.get(f"/api/v1/mesh/tasks/{task}/output?after_seq={poisoned['seq'] - 1}&limit=1")
    assert "POISON-MARKER" in page["items"][0]["data"]["text"]


async def test_poisoned_frame_is_replayed_on_resync(api, server):
    task, poisoned = await poisoned_task(api)
    raw, _ = await RawWS.connect(server.port)
    raw.send_text(json.dumps({"type": "resync", "last_seen": {task: poisoned["seq"] - 1}}))
    op, payload = await raw.frame()
    raw.close()
    assert op == 1 and not_utf8(payload)


async def test_no_resync_done_goes_live_without_it(api, server):
    await api.dev("POST", "/_dev/hostile/no_resync_done?on=true")
    raw, _ = await RawWS.connect(server.port)
    raw.send_text(json.dumps({"type": "resync", "last_seen": {}}))
    created = await api.dev("POST", "/_dev/task?status=running")
    op, payload = await raw.frame()
    raw.close()
    assert op == 1 and json.loads(payload).get("task_id") == created["id"], "no resync.done before live events"


async def test_reset_ends_every_fault_and_hostile_mode(api, server):
    task, poisoned = await poisoned_task(api)
    for control in ("/_dev/hostile/no_resync_done?on=true", "/_dev/hostile/output?mode=empty",
                    "/_dev/hostile/endless_list?kib=1", "/_dev/hostile/rest?mode=malformed",
                    "/_dev/unauthorized?on=true", "/_dev/fail?count=5", "/_dev/ws_reject?count=5"):
        await api.dev("POST", control)
    assert (await api.dev("POST", "/_dev/reset")) == {"reset": True}
    assert (await api.get(f"/api/v1/mesh/tasks/{task}/output?after_seq=0&limit=1"))["items"], "output mode normal"
    assert (await api.get("/api/v1/mesh/tasks?limit=1"))["items"][0]["id"] != "endless-1", "no endless list"
    raw, status = await RawWS.connect(server.port)
    assert status == 101, "no refused upgrades, authorized"
    raw.send_text(json.dumps({"type": "resync", "last_seen": {task: poisoned["seq"] - 1}}))
    op, payload = await raw.frame()
    assert op == 1 and json.loads(payload)["seq"] == poisoned["seq"], "the stored frame, no longer poisoned"
    op, payload = await raw.frame()
    raw.close()
    assert json.loads(payload) == {"type": "resync.done"}
