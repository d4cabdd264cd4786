"""--seed-scale: a new database with the totals asked for, realistic titles and plans, and
/mesh/tasks read whole by following next_cursor."""
from __future__ import annotations

import pytest

TASKS, DAEMONS = 2500, 120


@pytest.fixture
def api(launch):
    return launch("--seed-scale", f"{TASKS},{DAEMONS}").api()


async def read_all(api, query: str) -> tuple[list[dict], int]:
    items, cursor, pages = [], None, 0
    while True:
        page = await api.get(f"/api/v1/mesh/tasks?{query}&limit=1000" + (f"&cursor={cursor}" if cursor else ""))
        items += page["items"]
        pages += 1
        cursor = page["next_cursor"]
        assert page["total"] >= len(items), "total counts every page"
        if cursor is None:
            return items, pages
        assert pages < 10, "paging ends"


async def test_seed_scale_makes_the_totals_asked_for(api):
    seeded = await api.dev("GET", "/_dev/seeded")
    assert seeded["tasks"] == TASKS and len(await api.get("/api/v1/mesh/daemons")) == DAEMONS


async def test_pages_by_next_cursor_hold_every_task_once_newest_first(api):
    await api.dev("POST", "/_dev/requests/reset")
    every, pages = await read_all(api, "")
    logged = (await api.dev("GET", "/_dev/requests"))["recent"]
    assert len(logged) == 3 and all(r.startswith("GET /api/v1/mesh/tasks?&limit=1000") for r in logged), \
        "/_dev/requests logs each page read"
    assert pages == 3 and len(every) == TASKS and len({t["id"] for t in every}) == TASKS
    stamps = [t["updated_at"] for t in every]
    assert stamps == sorted(stamps, reverse=True), "pages continue the newest-first order"
    running, _ = await read_all(api, "status=running")
    seeded = await api.dev("GET", "/_dev/seeded")
    assert len(running) == seeded["running_tasks"] > 100 and all(t["status"] == "running" for t in running)
    await api.get("/api/v1/mesh/tasks?cursor=x1", expect=400)


async def test_titles_in_two_languages_and_plans_of_a_few_hundred_bytes_to_kilobytes(api):
    every, _ = await read_all(api, "")
    plans = [len(t["plan"].encode()) for t in every if (t.get("tags") or [None])[0] == "scale"]
    assert plans and min(plans) >= 200 and max(plans) > 2000, (min(plans or [0]), max(plans or [0]))
    assert all("_plan" not in t for t in every)
    assert any(any(ord(c) > 0x3000 for c in t["title"]) for t in every), "titles in Japanese"
    assert any(t["title"].isascii() for t in every), "and in English"
