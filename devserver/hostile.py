"""Hostile modes under /_dev/hostile/ (test controls: only with --test-controls, only from
loopback peers, like every /_dev route). Each reproduces a server the client must survive:
absurd sequence numbers, output pages that ignore `after_seq` or start past it, floods of
tasks with gaps, events whose bytes are not UTF-8 on every replay, a status event under another
event's id, replays that never end,
a task list that pages forever with large items, output text chosen by the test, output of
one huge line or one very wide table, and every API request answered by a redirect, an endless
body or malformed JSON."""
from __future__ import annotations

from aiohttp import WSMsgType, web

import util
from responses import BadRequest, int_param, json_response, raw_json, whole_param
from util import dumps, rfc3339

OUTPUT_MODES = ("normal", "ignore_after_seq", "skip_ahead", "empty")
MAX_GAP_TASKS, MAX_GAP_EVENTS = 5_000, 1_000
MAX_ENDLESS_KIB = 16 * 1024
# Seq 2^63 - 1: the value that overflowed the client's `next += 1`.
INT64_MAX = (1 << 63) - 1
INVALID_UTF8 = b"\xff\xfe\xc3\x28"


async def output_mode(request: web.Request) -> web.Response:
    """How GET /mesh/tasks/{id}/output misbehaves: `ignore_after_seq` always serves the
    first page, `skip_ahead` starts `skip` seqs past after+1, `empty` answers every task
    (known or not) with no events."""
    faults = request.app["faults"]
    mode = request.query.get("mode", "normal")
    if mode not in OUTPUT_MODES:
        raise BadRequest("mode must be one of " + ", ".join(OUTPUT_MODES))
    faults.output_mode = mode
    faults.output_skip = max(0, min(int_param(request, "skip", 5), 1_000_000))
    return json_response({"mode": faults.output_mode, "skip": faults.output_skip})


async def absurd_seq(request: web.Request) -> web.Response:
    """One task.output frame with an absurd seq (default 2^63 - 1) to every subscriber; not
    stored, so REST never confirms it."""
    store, hub = request.app["store"], request.app["hub"]
    task_id = request.query.get("task_id") or "_dev_absurd"
    raw = request.query.get("seq")
    try:
        seq = int(raw) if raw else INT64_MAX
    except ValueError:
        raise BadRequest("seq must be an integer") from None
    frame = dumps({"event_id": store.take_event_id(), "task_id": task_id, "seq": seq, "type": "task.output",
                   "ts": rfc3339(util.now(), "us"), "data": {"text": "absurd seq\n", "stream": "assistant"}})
    sent = hub.send_raw(frame.encode(), WSMsgType.TEXT)
    return json_response({"task_id": task_id, "seq": seq, "sent_to": sent})


async def gap_flood(request: web.Request) -> web.Response:
    """`events` output events for each of `tasks` new running tasks (or for the one task
    `task_id`), all stored; subscribers get every event but each task's first new one, so
    every task has a gap to fill over REST."""
    store, mesh, hub = request.app["store"], request.app["mesh"], request.app["hub"]
    per_task = max(2, min(int_param(request, "events", 3), MAX_GAP_EVENTS))
    if request.query.get("task_id"):
        ids = [mesh.task_row(request.query["task_id"])["id"]]
    else:
        count = max(1, min(int_param(request, "tasks", 100), MAX_GAP_TASKS))
        ids = [mesh.create_task("running", title=f"Gap flood task {i + 1} of {count}")["id"] for i in range(count)]
    first_withheld: dict[str, int] = {}
    with store.whole_output(whole_param(request)), store.tx() as pending:
        for task_id in ids:
            first_withheld[task_id] = store.last_seq.get(task_id, 0) + 1
            store.add_output_batch(task_id, [f"gap flood line {n}\n" for n in range(1, per_task + 1)], "assistant")
        published = [item for item in pending if item[1] != first_withheld[item[0]]]
    hub.publish(published)
    return json_response({"tasks": ids, "events_per_task": per_task, "withheld_seqs": first_withheld,
                          "last_seqs": {t: store.last_seq[t] for t in ids}})


async def poison(request: web.Request) -> web.Response:
    """Appends an output event to a task whose WebSocket frame carries bytes that are not
    UTF-8, live and on every resync replay after it (REST serves the stored, valid frame)."""
    store, mesh, hub = request.app["store"], request.app["mesh"], request.app["hub"]
    task_id = request.query.get("task_id")
    if not task_id:
        task_id = mesh.create_task("running", title="Task with a poisoned event")["id"]
    else:
        mesh.task_row(task_id)
    marker = "POISON-MARKER"
    # Whole: the marker must sit in one frame to be replaced.
    with store.whole_output(), store.tx() as pending:
        store.add_output_batch(task_id, [f"before {marker} after\n"], "assistant")
        task, seq, frame = pending[-1]
    raw = frame.encode().replace(marker.encode(), INVALID_UTF8)
    request.app["faults"].poison(task, seq, raw)
    hub.publish(pending)
    return json_response({"task_id": task, "seq": seq})


async def reused_event_id(request: web.Request) -> web.Response:
    """Sets a task's status (as /_dev/task/{id}/status does), but its WebSocket frame, live and
    on every replay, carries `event_id` (another task's event id, say): a server that reuses
    event ids. REST serves the stored event with its own id."""
    mesh = request.app["mesh"]
    task_id = request.query.get("task_id", "")
    try:
        reused = int(request.query.get("event_id", ""))
    except ValueError:
        raise BadRequest("event_id must be an integer") from None
    event = mesh.set_status(task_id, request.query.get("status", "failed").lower(),
                            request.query.get("reason") or None)
    # Published but not yet sent (no await since): the frame sent is this one.
    request.app["faults"].poison(task_id, event["seq"], dumps(dict(event, event_id=reused)).encode())
    return json_response({"task_id": task_id, "seq": event["seq"], "event_id": reused})


async def no_resync_done(request: web.Request) -> web.Response:
    """While on, a resync replays and then goes live without sending `resync.done`."""
    faults = request.app["faults"]
    raw = request.query.get("on", "true").lower()
    if raw not in ("true", "false"):
        raise BadRequest("on must be true or false")
    faults.withhold_resync_done = raw == "true"
    return json_response({"on": faults.withhold_resync_done})


async def endless_list(request: web.Request) -> web.Response:
    """While `kib` > 0, GET /mesh/tasks ignores the store and answers every page with one
    new task whose title is `kib` KiB long and a fresh `next_cursor`: a list that never ends."""
    faults = request.app["faults"]
    faults.endless_list_kib = max(0, min(int_param(request, "kib", 1024), MAX_ENDLESS_KIB))
    return json_response({"kib": faults.endless_list_kib})


def endless_page(request: web.Request) -> web.Response:
    faults = request.app["faults"]
    faults.endless_pages_served += 1
    n = faults.endless_pages_served
    now = rfc3339(util.now(), "ms")
    item = {"id": f"endless-{n}", "title": "E" * (faults.endless_list_kib * 1024), "status": "running",
            "created_at": now, "updated_at": now, "last_seq": 0}
    return raw_json(dumps({"items": [item], "next_cursor": f"endless-{n}"}))


async def endless_stats(request: web.Request) -> web.Response:
    """How many endless pages were served (what the client pulled)."""
    return json_response({"pages": request.app["faults"].endless_pages_served})


async def output_text(request: web.Request) -> web.Response:
    """The given `text` as output of the task (one event, or its pieces under
    --output-pieces unless `whole=true`), stored and published; `seq` is the last event's."""
    store, hub, mesh = request.app["store"], request.app["hub"], request.app["mesh"]
    task_id = request.query.get("task_id", "")
    mesh.task_row(task_id)
    with store.whole_output(whole_param(request)), store.tx() as pending:
        store.add_output_batch(task_id, [request.query.get("text", "")], "assistant")
    hub.publish(pending)
    return json_response({"task_id": task_id, "seq": pending[-1][1], "events": len(pending)})
HUGE_OUTPUT_KINDS = ("long_line", "wide_table")
MAX_HUGE_OUTPUT_BYTES = 8 * 1024 * 1024
HUGE_OUTPUT_CHUNK = 64 * 1024


async def huge_output(request: web.Request) -> web.Response:
    """Output a client must not freeze on, appended to `task_id` (or a new running task):
    `long_line` is one line of `bytes` (default 1 MiB) `x`s, `wide_table` a markdown table of
    `columns` (default 32,000) columns. Sent in 64 KiB events, so the line also streams in
    unfinished."""
    store, mesh, hub = request.app["store"], request.app["mesh"], request.app["hub"]
    kind = request.query.get("kind", "long_line")
    if kind not in HUGE_OUTPUT_KINDS:
        raise BadRequest("kind must be one of " + ", ".join(HUGE_OUTPUT_KINDS))
    task_id = request.query.get("task_id")
    if not task_id:
        task_id = mesh.create_task("running", title=f"Task with a {kind.replace('_', ' ')}")["id"]
    else:
        mesh.task_row(task_id)
    if kind == "long_line":
        size = max(1, min(int_param(request, "bytes", 1024 * 1024), MAX_HUGE_OUTPUT_BYTES))
        text = "x" * size + "\n"
    else:
        columns = max(1, min(int_param(request, "columns", 32_000), 1_000_000))
        text = "|" + "a|" * columns + "\n|" + "-|" * columns + "\n|" + "1|" * columns + "\n\nafter the table\n"
    chunks = [text[i:i + HUGE_OUTPUT_CHUNK] for i in range(0, len(text), HUGE_OUTPUT_CHUNK)]
    with store.whole_output(whole_param(request)), store.tx() as pending:
        store.add_output_batch(task_id, chunks, "assistant")
    hub.publish(pending)
    return json_response({"task_id": task_id, "bytes": len(text.encode()), "events": len(pending)})

REST_ANSWERS = ("", "redirect", "huge", "malformed")


async def rest_answer(request: web.Request) -> web.Response:
    """How every /api/v1 request (the WebSocket aside) is answered from now on: `redirect`
    (302 to `to`, the key header be followed or not), `huge` (200, a JSON body that never ends),
    `malformed` (200, a body that is not JSON), or normally (no mode)."""
    faults = request.app["faults"]
    mode = request.query.get("mode", "")
    if mode not in REST_ANSWERS:
        raise BadRequest("mode must be one of redirect, huge, malformed (or none)")
    faults.rest_answer = mode
    faults.rest_redirect_to = request.query.get("to", "")
    return json_response({"mode": mode, "to": faults.rest_redirect_to})


async def rest_answer_for(request: web.Request, faults) -> web.StreamResponse:
    if faults.rest_answer == "redirect":
        return web.Response(status=302, headers={"Location": faults.rest_redirect_to + request.path_qs})
    if faults.rest_answer == "malformed":
        return web.Response(status=200, content_type="application/json", text='{"items": [{"id": "t1", "title": ')
    response = web.StreamResponse(status=200, headers={"Content-Type": "application/json"})
    await response.prepare(request)
    await response.write(b'{"items": [{"id": "huge", "title": "')
    chunk = b"x" * (1 << 20)
    # Up to 1 GiB, while the client keeps reading: it is expected to stop at its own bound.
    for _ in range(1024):
        try:
            await response.write(chunk)
        except ConnectionError:
            break
    return response


def add_routes(app: web.Application) -> None:
    r = app.router
    r.add_post("/_dev/hostile/output", output_mode)
    r.add_post("/_dev/hostile/absurd_seq", absurd_seq)
    r.add_post("/_dev/hostile/gap_flood", gap_flood)
    r.add_post("/_dev/hostile/poison", poison)
    r.add_post("/_dev/hostile/no_resync_done", no_resync_done)
    r.add_post("/_dev/hostile/reused_event_id", reused_event_id)
    r.add_post("/_dev/hostile/endless_list", endless_list)
    r.add_get("/_dev/hostile/endless_list", endless_stats)
    r.add_post("/_dev/hostile/output_text", output_text)
    r.add_post("/_dev/hostile/huge_output", huge_output)
    r.add_post("/_dev/hostile/rest", rest_answer)
