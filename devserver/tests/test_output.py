"""Task output: REST pages against the stored truth, what the seeded history holds, and output
in pieces (--output-pieces 1,40, the default): where the cuts fall, REST equal to the
WebSocket, and whole=true."""
from __future__ import annotations

from urllib.parse import urlencode

import pytest

from harness import read_events, ws_until

PIECES = (1, 40)
# Output with every marker a cut must be allowed to split: bold, code, table rows, runs of
# newlines, an SGR escape, Japanese and a 4-byte code point.
STREAMED = ("The **scheduler** drops `heartbeat` frames when *busy*\n\n\n| a | b |\n|---|---|\n"
            "\x1b[32mok\x1b[0m 日本語 🚀 done\n") * 40
MARKERS = ("**", "`heartbeat`", "\n\n\n", "| a | b |", "\x1b[32m", "\x1b[0m", "日本語", "scheduler")


def assert_pieces(texts: list[str], what: str) -> None:
    for t in texts:
        assert PIECES[0] <= len(t) <= PIECES[1], f"{what}: a piece of {PIECES[0]}..{PIECES[1]} characters ({t!r})"
        t.encode("utf-8")  # a lone surrogate (half a code point) would raise here


async def finished_tasks(api) -> list[dict]:
    tasks = (await api.get("/api/v1/mesh/tasks?limit=1000"))["items"]
    return [t for t in tasks if t["status"] in ("completed", "failed")]


async def test_output_pages_equal_the_stored_events(api):
    done = await finished_tasks(api)
    assert done
    for t in done:
        events = await api.truth(t["id"])
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), "stored seqs are 1..n"
        pages, after = [], 0
        while True:
            page = await api.get(f"/api/v1/mesh/tasks/{t['id']}/output?after_seq={after}&limit=7")
            assert page["next_after_seq"] == (page["items"][-1]["seq"] if page["items"] else after)
            if not page["items"]:
                break
            pages += page["items"]
            after = page["next_after_seq"]
        assert pages == events, f"paged output of {t['id']}"


async def test_dev_output_is_the_text_of_the_output_events(api):
    for t in await finished_tasks(api):
        events = await api.truth(t["id"])
        text = await api.dev("GET", f"/_dev/output?task_id={t['id']}")
        assert text == "".join(e["data"]["text"] for e in events if e["type"] == "task.output")


async def test_seeded_output_holds_markdown_code_sgr_and_gates(api):
    all_text, gate_events = "", 0
    for t in await finished_tasks(api):
        all_text += await api.dev("GET", f"/_dev/output?task_id={t['id']}")
        gate_events += sum(e["type"] == "task.completion_gate" and "body" in e["data"] for e in await api.truth(t["id"]))
    for needle in ("<COMPLETION_GATE>", "```swift", "```bash", "\x1b[32m", "tool_use:", "- "):
        assert needle in all_text
    assert gate_events > 0, "task.completion_gate events in the history"


async def test_output_limit_is_capped(api):
    done = await finished_tasks(api)
    burst = await api.dev("POST", f"/_dev/burst?task_id={done[0]['id']}&count=2500&whole=true")
    big = await api.get(f"/api/v1/mesh/tasks/{done[0]['id']}/output?limit=99999")
    assert burst["last_seq"] > 2000 and len(big["items"]) == 2000


def _find_all(text: str, needle: str) -> list[int]:
    return [i for i in range(len(text)) if text.startswith(needle, i)]


async def assert_rest_serves_what_the_websocket_sent(api, seen: list[dict]) -> dict[str, list[dict]]:
    by_task: dict[str, list[dict]] = {}
    for e in seen:
        by_task.setdefault(e["task_id"], []).append(e)
    for task_id, events in by_task.items():
        assert (await api.output(task_id))[-len(events):] == events, f"REST /output of {task_id}"
        assert_pieces([e["data"]["text"] for e in events if e["type"] == "task.output"], f"output of {task_id}")
    return by_task


@pytest.mark.parametrize("flags", [(), ("--output-pieces", "1,40")], ids=["default", "explicit"])
async def test_output_text_is_cut_anywhere_and_reassembles(launch, flags):
    api = launch(*flags).api()
    ws, _ = await api.ws({})
    task = await api.dev("POST", "/_dev/task?status=running")
    # Three writes (a URL holds one): enough cuts that each marker is cut somewhere.
    for _ in range(3):
        written = await api.dev("POST", "/_dev/hostile/output_text?" + urlencode({"task_id": task["id"], "text": STREAMED}))
        assert written["events"] > len(STREAMED) // PIECES[1], "output_text is cut into pieces"
    seen: list[dict] = []
    await ws_until(ws, {task["id"]: written["seq"]}, seen)
    await ws.close()
    by_task = await assert_rest_serves_what_the_websocket_sent(api, seen)
    mine = [e["data"]["text"] for e in by_task[task["id"]] if 1 < e["seq"] <= written["seq"]]
    assert "".join(mine) == STREAMED * 3, "the pieces reassemble to the text written"
    cuts, at = set(), 0
    for piece in mine[:-1]:
        at += len(piece)
        cuts.add(at)
    split = {m for m in MARKERS if any(i < c < i + len(m) for c in cuts for i in _find_all(STREAMED * 3, m))}
    assert split == set(MARKERS), "cuts fall inside every kind of marker"


async def test_burst_and_tick_output_is_cut_too(api):
    ws, _ = await api.ws({})
    burst = await api.dev("POST", "/_dev/burst?count=300")
    assert burst["count"] > burst["lines"] == 300 and burst["last_seq"] == burst["count"] + 1, burst
    tick = await api.dev("POST", "/_dev/tick?count=60")
    seen: list[dict] = []
    await ws_until(ws, {burst["task_id"]: burst["last_seq"]}, seen)
    # The burst's last event came before any of the tick's.
    seen += await read_events(ws, tick["events"])
    await ws.close()
    by_task = await assert_rest_serves_what_the_websocket_sent(api, seen)
    assert len(by_task) > 1, "the tick wrote to other tasks"


async def test_whole_true_writes_whole_texts(api):
    task = await api.dev("POST", "/_dev/task?status=running")
    whole = await api.dev("POST", "/_dev/hostile/output_text?" + urlencode(
        {"task_id": task["id"], "text": STREAMED, "whole": "true"}))
    assert whole["events"] == 1
    assert (await api.truth(task["id"]))[-1]["data"]["text"] == STREAMED
    whole_burst = await api.dev("POST", "/_dev/burst?count=50&whole=true")
    assert whole_burst["count"] == 50, "burst whole=true: one event a line"


async def test_seeded_history_is_in_pieces(api):
    seeded = [t for t in (await api.get("/api/v1/mesh/tasks?status=completed&limit=1000"))["items"]
              if "seed" in t.get("tags", [])]
    history = [e["data"]["text"] for e in await api.truth(seeded[0]["id"]) if e["type"] == "task.output"]
    assert_pieces(history, "seeded history")
    assert "<COMPLETION_GATE>" in "".join(history), "the seeded history reassembles"


async def test_output_pieces_0_writes_one_event_a_line(launch):
    api = launch("--output-pieces", "0").api()
    burst = await api.dev("POST", "/_dev/burst?count=5")
    assert burst["lines"] == burst["count"] == 5
