"""The server as a process: the command line's READY line and clean exit, refusals (a busy
port, test controls on a non-loopback host), and restarts on the same database."""
from __future__ import annotations

import time

from harness import KEY, stamp


def test_command_line_prints_ready_and_exits_0_on_sigterm(launch):
    srv = launch(cli=True)
    assert srv.port > 0 and srv.url == f"http://127.0.0.1:{srv.port}"
    assert srv.stop() == 0


def test_a_busy_port_is_refused_clearly(launch, server):
    busy = launch(defaults=False, start=False, host_args=("--host", "127.0.0.1", "--port", str(server.port)))
    assert busy.wait() == 2
    assert "already in use" in busy.log_tail() and busy.stdout() == ""


def test_test_controls_are_refused_on_a_non_loopback_host(launch):
    refused = launch(cli=True, start=False, host_args=("--host", "0.0.0.0"))
    assert refused.wait() == 2
    assert "refusing" in refused.log_tail() and refused.stdout() == ""


async def test_a_restart_keeps_the_rotated_key_and_the_events(launch):
    first = launch()
    api = first.api()
    api.key = (await api.refresh())["key"]
    burst = await api.dev("POST", "/_dev/burst?count=20")
    assert first.stop() == 0
    again = launch("--rate", "0", defaults=False, db=first.db)
    api = again.api(api.key)
    await api.dev("GET", "/_dev/seeded", expect=404)
    await api.get("/api/v1/mesh/daemons", key=KEY, expect=401)
    page = await api.get(f"/api/v1/mesh/tasks/{burst['task_id']}/output?after_seq={burst['last_seq'] - 1}")
    assert page["last_seq"] == burst["last_seq"] and [e["seq"] for e in page["items"]] == [burst["last_seq"]]


async def test_a_restart_continues_event_ids_and_seqs_under_new_flags(launch):
    first = launch()
    api = first.api()
    burst = await api.dev("POST", "/_dev/burst?count=20")
    next_id = (await api.dev("GET", "/_dev/seeded"))["next_event_id"]
    assert first.stop() == 0
    again = launch("--clock-skew", "-3600", "--output-pieces", "0", db=first.db)
    api = again.api()
    before = time.time()
    more = await api.dev("POST", f"/_dev/burst?task_id={burst['task_id']}&count=5")
    after = time.time()
    assert more["lines"] == more["count"] == 5, "--output-pieces 0: one event a line"
    assert more["last_seq"] == burst["last_seq"] + 5, "seqs continue"
    events = (await api.truth(burst["task_id"]))[-5:]
    assert events[0]["event_id"] >= next_id and events[0]["seq"] == burst["last_seq"] + 1, "event ids continue"
    for e in events:
        assert before - 3601 <= stamp(e["ts"]) <= after - 3600, f"--clock-skew -3600: an hour behind ({e['ts']})"
