"""The task-event WebSocket: resync replays what a client has not seen and then goes live, with
no gap and no double, also while a burst of about 40,000 events is being written."""
from __future__ import annotations

import asyncio
import json

import aiohttp

from harness import READ_TIMEOUT_S, read_events, seqs_of


async def running_task(api) -> str:
    return (await api.get("/api/v1/mesh/tasks?status=running"))["items"][0]["id"]


async def test_resync_from_zero_replays_the_whole_history_then_goes_live(api):
    t = await running_task(api)
    ws, replay = await api.ws({t: 0})
    history = await api.truth(t)
    assert replay == history, "the task's whole history, in order"
    tick = await api.dev("POST", "/_dev/tick?count=40")
    live = await read_events(ws, tick["events"])
    await ws.close()
    last_seen: dict[str, int] = {t: history[-1]["seq"]}
    for e in live:
        if e["task_id"] in last_seen:
            assert e["seq"] == last_seen[e["task_id"]] + 1, f"live seqs contiguous for {e['task_id']}"
        last_seen[e["task_id"]] = e["seq"]
    assert len(last_seen) > 1, "the tick reached several tasks"


async def test_resync_replays_after_last_seen_then_goes_live(api):
    ws, _ = await api.ws({})
    tick = await api.dev("POST", "/_dev/tick?count=40")
    last_seen: dict[str, int] = {}
    for e in await read_events(ws, tick["events"]):
        last_seen[e["task_id"]] = e["seq"]
    await ws.close()
    # Part of what was seen is "forgotten" to make the replay non-trivial.
    named = {k: max(0, v - 2) for k, v in last_seen.items()}
    await api.dev("POST", "/_dev/tick?count=40")
    before = {k: (await api.truth(k))[-1]["seq"] for k in named}
    ws, replay = await api.ws(named)
    tick = await api.dev("POST", "/_dev/tick?count=30")
    live = await read_events(ws, tick["events"])
    await ws.close()
    for task_id, seen in named.items():
        got = seqs_of(replay, task_id) + seqs_of(live, task_id)
        assert got == list(range(seen + 1, (await api.truth(task_id))[-1]["seq"] + 1)), f"no gap, no double: {task_id}"
        assert seqs_of(replay, task_id) == list(range(seen + 1, before[task_id] + 1)), "replay stops at the resync"
    assert not [e for e in replay if e["task_id"] not in named], "nothing replayed for tasks not named"


async def test_burst_reaches_a_live_and_a_resyncing_subscriber_in_order(api):
    """About 40,000 events (10,000 lines, each cut into pieces): one subscriber connected
    before the burst, one that resyncs from 0 once it is under way. Both see every seq once,
    in order."""
    early, _ = await api.ws({})
    task_id = (await api.dev("POST", "/_dev/task?status=running"))["id"]
    burst = asyncio.create_task(api.dev("POST", f"/_dev/burst?task_id={task_id}&count=10000"))

    async def collect(ws, seqs: list[int], upto: int) -> None:
        while not seqs or seqs[-1] < upto:
            msg = await asyncio.wait_for(ws.receive(), READ_TIMEOUT_S)
            assert msg.type == aiohttp.WSMsgType.TEXT, "burst frames are text"
            e = json.loads(msg.data)
            if e["task_id"] == task_id:
                seqs.append(e["seq"])

    early_seqs: list[int] = []
    await collect(early, early_seqs, 1000)  # the burst is under way
    late, replay = await api.ws({task_id: 0})
    late_seqs = seqs_of(replay, task_id)
    result = await burst
    last = result["last_seq"]
    assert result["lines"] == 10000 and result["count"] >= 10000 and last == result["count"] + 1, \
        "the creation event + the events of 10,000 lines"
    await asyncio.gather(collect(early, early_seqs, last), collect(late, late_seqs, last))
    await early.close()
    await late.close()
    want = list(range(1, last + 1))
    assert early_seqs == want, "live subscriber: every burst seq once, in order"
    assert late_seqs == want, "subscriber resyncing mid-burst: every seq once, in order"
    tail = await api.get(f"/api/v1/mesh/tasks/{task_id}/output?after_seq={last - 11}")
    assert [e["seq"] for e in tail["items"]] == list(range(last - 10, last + 1)), "the burst's tail over REST"
