"""The simulation (--rate) and the seed: events with no ticks, tasks born live and streaming in
pieces by default, and the same seed (and flags) giving the same mesh and the same pieces."""
from __future__ import annotations

from harness import read_events


def seeded_ids(tasks: dict) -> set[str]:
    return {t["id"] for t in tasks["items"] if "seed" in t.get("tags", [])}


async def test_rate_streams_simulated_events_with_no_ticks(launch):
    api = launch("--rate", "40", defaults=False).api()
    ws, _ = await api.ws({})
    live = await read_events(ws, 20)
    await ws.close()
    assert all(e["seq"] >= 1 for e in live)


async def test_the_seed_decides_the_seeded_tasks(launch):
    quiet = launch().api()
    busy = launch("--rate", "40", defaults=False).api()
    first = seeded_ids(await quiet.get("/api/v1/mesh/tasks?limit=1000"))
    assert first and first == seeded_ids(await busy.get("/api/v1/mesh/tasks?limit=1000"))


async def test_same_seed_and_flags_give_the_same_pieces(launch):
    flags = ("--output-pieces", "1,40", "--clock-offset", "-3723.5")
    one, two = launch(*flags).api(), launch(*flags).api()
    ids = seeded_ids(await one.get("/api/v1/mesh/tasks?limit=1000"))
    assert ids

    def content(events: list[dict]) -> list[tuple]:
        return [(e["event_id"], e["seq"], e["type"], e["data"]) for e in events]

    for task_id in ids:
        assert content(await one.truth(task_id)) == content(await two.truth(task_id)), task_id


async def test_by_default_tasks_are_born_live_and_output_comes_in_pieces(launch):
    api = launch("--rate", "40", defaults=False).api()
    ws, _ = await api.ws({})
    listed = {t["id"] for t in (await api.get("/api/v1/mesh/tasks?limit=1000"))["items"]}
    first: dict[str, dict] = {}
    longest = 0
    for _ in range(100_000):
        (e,) = await read_events(ws, 1)
        if e["type"] == "task.output":
            longest = max(longest, len(e["data"]["text"]))
        if e["task_id"] in listed:
            continue
        born = first.setdefault(e["task_id"], e)
        if born["seq"] == 1 and born["data"].get("status") == "running" and e["type"] == "task.output":
            break
    else:
        raise AssertionError("no live task within 100,000 events")
    await ws.close()
    assert (await api.get(f"/api/v1/mesh/tasks/{e['task_id']}"))["status"] in ("running", "completed", "failed")
    assert 0 < longest <= 40, f"output in pieces of at most 40 characters (longest {longest})"
