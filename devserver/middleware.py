"""Request gates: one log line per request, JSON errors, the /_dev guard, injected faults
and API-key auth for /api/v1."""
from __future__ import annotations

import asyncio
import logging
import time
from collections import deque

from aiohttp import web

from responses import BadRequest, error
from hostile import rest_answer_for
from mesh import NotFound
from util import is_loopback_peer

log = logging.getLogger("devserver")

SUBSCRIBE_PATH = "/api/v1/mesh/tasks/subscribe"
OPEN_PATHS = {"/health", "/api/v1/health"}
KEY_HEADER = "x-makima-api-key"


class RequestLog:
    """Every `/api/v1` request (health aside), as `METHOD /path?query`: the newest
    `MAX_KEPT` and a total, for tests that count what a client asked (`/_dev/requests`)."""

    MAX_KEPT = 10_000

    def __init__(self) -> None:
        self.total = 0
        self.recent: deque[str] = deque(maxlen=self.MAX_KEPT)

    def note(self, method: str, path_qs: str) -> None:
        self.total += 1
        self.recent.append(f"{method} {path_qs}")

    def reset(self) -> None:
        self.total = 0
        self.recent.clear()


@web.middleware
async def access_log(request: web.Request, handler):
    started = time.monotonic()
    status = 500
    try:
        response = await handler(request)
        status = response.status
        return response
    except web.HTTPException as e:
        status = e.status
        raise
    finally:
        # Path only: query strings carry no secrets here, but keys travel in a header that
        # is never logged.
        note = request.get("log_note")
        log.info("%s %s %s %d %.1fms%s", request.remote, request.method, request.path, status,
                 (time.monotonic() - started) * 1000, f" ({note})" if note else "")


@web.middleware
async def json_errors(request: web.Request, handler):
    try:
        return await handler(request)
    except NotFound:
        return error(404, "not found")
    except BadRequest as e:
        return error(400, f"bad request: {e}")
    except web.HTTPException as e:
        if e.status < 400:
            raise
        message = {404: "not found", 405: "method not allowed"}.get(e.status, (e.reason or "error").lower())
        return error(e.status, message)
    except (asyncio.CancelledError, ConnectionError):
        raise
    except Exception:  # noqa: BLE001 - any bug answers 500 and is logged, the server lives on
        log.exception("handler failed: %s %s", request.method, request.path)
        return error(500, "internal error")


@web.middleware
async def gates(request: web.Request, handler):
    app = request.app
    path = request.path
    if path == "/_dev" or path.startswith("/_dev/"):
        if not app["config"].test_controls:
            return error(404, "not found")
        if not is_loopback_peer(request.remote):
            return error(403, "forbidden")
        return await handler(request)
    if not path.startswith("/api/v1/") or path in OPEN_PATHS:
        return await handler(request)

    app["requests"].note(request.method, request.path_qs)
    faults = app["faults"]
    is_ws = path == SUBSCRIBE_PATH
    if faults.latency_ms:
        await asyncio.sleep(faults.latency_ms / 1000)
    if faults.unauthorized:
        return error(401, "unauthorized")
    if faults.rest_answer and not is_ws:
        return await rest_answer_for(request, faults)
    if is_ws and faults.ws_reject_count > 0:
        faults.ws_reject_count -= 1
        response = error(faults.ws_reject_status, "websocket upgrade rejected by test control")
        if faults.ws_reject_retry_after is not None:
            response.headers["Retry-After"] = faults.ws_reject_retry_after
        return response
    if not is_ws and faults.fail_count > 0:
        faults.fail_count -= 1
        response = error(faults.fail_status, "injected failure")
        if faults.fail_retry_after is not None:
            response.headers["Retry-After"] = faults.fail_retry_after
        return response
    key = request.headers.get(KEY_HEADER)
    key_id = app["keys"].check(key)
    if key_id is None:
        # A revoked key is told apart so a client can say "revoked", not "wrong key".
        return error(401, "api key revoked" if app["keys"].is_revoked(key) else "unauthorized")
    request["key_id"] = key_id
    return await handler(request)
