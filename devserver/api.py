"""REST handlers under /api/v1 (the contract in docs/api.md) and /health."""
from __future__ import annotations

from aiohttp import web

import hostile
import views
from mesh import NotFound
from responses import BadRequest, int_param, json_response, raw_json
from util import SERVER_NAME, VERSION, dumps

TASK_LIST_DEFAULT, TASK_LIST_MAX = 100, 1000
OUTPUT_DEFAULT, OUTPUT_MAX = 500, 2000


def _store(request):
    return request.app["store"]


def _row_by_id(request: web.Request, table: str):
    """The row of TABLE whose id is the path's {id}; a 404 when there is none."""
    row = _store(request).one(f"SELECT * FROM {table} WHERE id=?", (request.match_info["id"],))
    if row is None:
        raise NotFound()
    return row


async def health(request: web.Request) -> web.Response:
    return json_response({"status": "ok", "version": f"{SERVER_NAME} {VERSION}",
                          "uptime_s": round(request.app["clock"]() - request.app["started"], 1)})


# ---- mesh -----------------------------------------------------------------------------

async def daemons(request: web.Request) -> web.Response:
    store = _store(request)
    running = views.running_by_daemon(store)
    rows = store.all("SELECT * FROM daemons ORDER BY ord")
    # Bare list on purpose: clients must accept both list shapes.
    return json_response([views.daemon(r, running.get(r["id"], 0)) for r in rows])


async def tasks(request: web.Request) -> web.Response:
    if request.app["faults"].endless_list_kib:
        return hostile.endless_page(request)
    store = _store(request)
    where, args = [], []
    status = request.query.get("status")
    if status:
        wanted = [s.strip().lower() for s in status.split(",") if s.strip()]
        where.append("status IN (%s)" % ",".join("?" * len(wanted)))
        args += wanted
    for name in ("contract_id", "daemon_id", "parent_id"):
        if request.query.get(name):
            where.append(f"{name}=?")
            args.append(request.query[name])
    limit = max(1, min(int_param(request, "limit", TASK_LIST_DEFAULT), TASK_LIST_MAX))
    offset, after = _cursor(request)
    clause = (" WHERE " + " AND ".join(where)) if where else ""
    total = store.one(f"SELECT COUNT(*) FROM tasks{clause}", args)[0]
    # One row more than asked: whether another page follows, without a second query.
    if after is not None:
        # Past the last row sent, by its sort key: a deep page costs what a first one does
        # (an OFFSET of 190,000 walked 190,000 rows for every page of a 200,000-task list).
        keyset = "(updated_at < ? OR (updated_at = ? AND id > ?))"
        rows = store.all(f"SELECT * FROM tasks WHERE {' AND '.join(where + [keyset])}"
                         " ORDER BY updated_at DESC, id LIMIT ?", args + [after[0], after[0], after[1], limit + 1])
    else:
        rows = store.all(f"SELECT * FROM tasks{clause} ORDER BY updated_at DESC, id LIMIT ? OFFSET ?",
                         args + [limit + 1, offset])
    more = len(rows) > limit
    rows = rows[:limit]
    # Opaque to clients: they send back what they got. Here it is the last row's sort key.
    next_cursor = f"k{rows[-1]['updated_at']!r}~{rows[-1]['id']}" if more else None
    return json_response({"items": [views.task(r) for r in rows], "total": total, "limit": limit,
                          "next_cursor": next_cursor})


def _cursor(request: web.Request) -> tuple[int, tuple[float, str] | None]:
    """What a `cursor` from an earlier page stands for: the sort key of the last row sent
    (`k<updated_at>~<id>`, what this server sends) or an offset (`o<n>`, still accepted)."""
    raw = request.query.get("cursor", "")
    if not raw:
        return 0, None
    if raw.startswith("o") and raw[1:].isdigit() and len(raw) <= 12:
        return int(raw[1:]), None
    if raw.startswith("k") and "~" in raw and len(raw) <= 200:
        stamp, _, task_id = raw[1:].partition("~")
        try:
            return 0, (float(stamp), task_id)
        except ValueError:
            pass
    raise BadRequest("cursor must be a next_cursor this server sent")


async def task(request: web.Request) -> web.Response:
    return json_response(views.task(_row_by_id(request, "tasks")))


async def task_output(request: web.Request) -> web.Response:
    store = _store(request)
    task_id = request.match_info["id"]
    mode = request.app["faults"].output_mode  # hostile modes, set by /_dev/hostile/output
    if mode == "empty":
        return raw_json(f'{{"items":[],"next_after_seq":{max(0, int_param(request, "after_seq", 0))}}}')
    if task_id not in store.last_seq:
        raise NotFound()
    after = max(0, int_param(request, "after_seq", 0))
    if mode == "ignore_after_seq":
        after = 0
    elif mode == "skip_ahead":
        after += request.app["faults"].output_skip
    limit = max(1, min(int_param(request, "limit", OUTPUT_DEFAULT), OUTPUT_MAX))
    rows = store.events_after(task_id, after, limit)
    next_after = rows[-1][0] if rows else after
    # Frames are stored as served, so the page is assembled without re-encoding.
    body = ('{"items":[' + ",".join(r[1] for r in rows) + f'],"next_after_seq":{next_after},'
            f'"last_seq":{store.last_seq.get(task_id, 0)}}}')
    return raw_json(body)


# ---- contracts, directives, listen ----------------------------------------------------------

async def contracts(request: web.Request) -> web.Response:
    store = _store(request)
    status = request.query.get("status")
    if status:
        rows = store.all("SELECT * FROM contracts WHERE status=? ORDER BY updated_at DESC", (status.lower(),))
    else:
        rows = store.all("SELECT * FROM contracts ORDER BY updated_at DESC")
    return json_response({"items": [views.contract(r) for r in rows], "total": len(rows)})


async def contract(request: web.Request) -> web.Response:
    store = _store(request)
    cid = request.match_info["id"]
    row = store.one("SELECT * FROM contracts WHERE id=?", (cid,))
    if row is None:
        raise NotFound()
    counts = {r[0]: r[1] for r in store.all("SELECT status, COUNT(*) FROM tasks WHERE contract_id=? GROUP BY status", (cid,))}
    out = views.contract(row, sum(counts.values()))
    out["tasks_by_status"] = counts
    return json_response(out)


async def directives(request: web.Request) -> web.Response:
    store = _store(request)
    pending = request.query.get("pending", "").lower()
    sql = "SELECT * FROM directives"
    if pending in ("true", "1", "yes"):
        sql += " WHERE question IS NOT NULL"
    elif pending in ("false", "0", "no"):
        sql += " WHERE question IS NULL"
    rows = store.all(sql + " ORDER BY ord")
    pending_count = store.one("SELECT COUNT(*) FROM directives WHERE question IS NOT NULL")[0]
    return json_response({"items": [views.directive(r) for r in rows], "pending_count": pending_count})


async def directive(request: web.Request) -> web.Response:
    return json_response(views.directive(_row_by_id(request, "directives")))


async def listen_sessions(request: web.Request) -> web.Response:
    store = _store(request)
    limit = max(1, min(int_param(request, "limit", 50), 500))
    rows = store.all("SELECT * FROM listen_sessions ORDER BY started_at DESC LIMIT ?", (limit,))
    return json_response({"items": [views.listen_session(r, False) for r in rows], "next_cursor": None})


async def listen_session(request: web.Request) -> web.Response:
    return json_response(views.listen_session(_row_by_id(request, "listen_sessions"), True))


# ---- API keys -------------------------------------------------------------------------

async def api_keys(request: web.Request) -> web.Response:
    return json_response({"items": [views.api_key(r) for r in request.app["keys"].active()]})


async def api_key_refresh(request: web.Request) -> web.Response:
    key, new_id = request.app["keys"].rotate(request["key_id"])
    return json_response({"key": key, "id": new_id, "prefix": key[:10]})


async def api_key_delete(request: web.Request) -> web.Response:
    request.app["keys"].revoke(request["key_id"])
    return web.Response(status=204)


def add_routes(app: web.Application, subscribe_handler) -> None:
    r = app.router
    r.add_get("/health", health)
    r.add_get("/api/v1/health", health)
    r.add_get("/api/v1/mesh/daemons", daemons)
    r.add_get("/api/v1/mesh/tasks", tasks)
    # Registered before /mesh/tasks/{id}, which would otherwise match "subscribe".
    r.add_get("/api/v1/mesh/tasks/subscribe", subscribe_handler)
    r.add_get("/api/v1/mesh/tasks/{id}", task)
    r.add_get("/api/v1/mesh/tasks/{id}/output", task_output)
    r.add_get("/api/v1/contracts", contracts)
    r.add_get("/api/v1/contracts/{id}", contract)
    r.add_get("/api/v1/directives", directives)
    r.add_get("/api/v1/directives/{id}", directive)
    r.add_get("/api/v1/listen/sessions", listen_sessions)
    r.add_get("/api/v1/listen/sessions/{id}", listen_session)
    r.add_get("/api/v1/auth/api-keys", api_keys)
    r.add_post("/api/v1/auth/api-keys/refresh", api_key_refresh)
    r.add_delete("/api/v1/auth/api-keys", api_key_delete)
