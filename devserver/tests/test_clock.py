"""--clock-offset: the server's whole clock is off the real one, and everything it stamps (Date
headers, events, tasks, heartbeats, questions, listen times, keys) is on its clock."""
from __future__ import annotations

import re
import time

import pytest

from harness import RawWS, http_stamp, stamp, walk_times, within

OFFSET = -3723.5


@pytest.fixture
def api(launch):
    return launch("--clock-offset", str(OFFSET)).api()


async def test_dev_clock_says_the_offset_and_the_server_now(api):
    before = time.time()
    clock = await api.dev("GET", "/_dev/clock")
    after = time.time()
    assert clock["offset_s"] == OFFSET
    assert within(stamp(clock["now"]), before + OFFSET, after + OFFSET)


@pytest.mark.parametrize(("path", "key"), [("/health", None), ("/api/v1/mesh/daemons", "default"), ("/_dev/clock", None)])
async def test_date_headers_are_on_the_server_clock(api, path, key):
    before = time.time()
    async with api.session.get(api.base + path, headers=api.headers(key)) as r:
        after = time.time()
        assert r.status == 200 and within(http_stamp(r.headers["Date"]), before + OFFSET, after + OFFSET)


async def test_the_websocket_upgrade_has_a_date_on_the_server_clock(api):
    before = time.time()
    raw, status = await RawWS.connect(api.server.port)
    after = time.time()
    raw.close()
    date = re.search(rb"\r\ndate: ([^\r]+)\r\n", raw.head.lower())
    assert status == 101 and date is not None
    assert within(http_stamp(date.group(1).decode()), before + OFFSET, after + OFFSET)


async def test_new_tasks_and_events_are_stamped_on_the_server_clock(api):
    before = time.time()
    task = await api.dev("POST", "/_dev/task?status=running")
    after = time.time()
    event = (await api.truth(task["id"]))[0]
    for value in (event["ts"], task["created_at"], task["updated_at"]):
        assert within(stamp(value), before + OFFSET, after + OFFSET), value


async def test_no_timestamp_is_after_the_server_now_and_the_newest_is_now(api):
    before = time.time()
    await api.dev("POST", "/_dev/task?status=running")
    sessions = await api.get("/api/v1/listen/sessions")
    answers = [sessions]
    for path in ("/api/v1/mesh/daemons", "/api/v1/mesh/tasks?limit=1000", "/api/v1/contracts", "/api/v1/directives",
                 "/api/v1/auth/api-keys", f"/api/v1/listen/sessions/{sessions['items'][0]['id']}"):
        answers.append(await api.get(path))
    after = time.time()
    stamps = [stamp(t) for t in walk_times(answers, [])]
    assert len(stamps) > 100
    # A stamp on the real clock would be an hour after the server's now.
    assert max(stamps) <= after + OFFSET + 0.001, "no timestamp after the server's now"
    assert max(stamps) >= before + OFFSET - 1.001, "the newest timestamp is the server's now"
