"""JSON answers and query parameters, shared by the API handlers, the test controls and the
hostile modes (a module of its own, so none of them imports another to reach these)."""
from __future__ import annotations

from aiohttp import web

from util import dumps


class BadRequest(Exception):
    pass


def json_response(value, status: int = 200) -> web.Response:
    return web.Response(text=dumps(value), status=status, content_type="application/json")


def raw_json(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="application/json")


def error(status: int, message: str) -> web.Response:
    return json_response({"error": message}, status)


def int_param(request: web.Request, name: str, default: int | None) -> int | None:
    raw = request.query.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise BadRequest(f"{name} must be an integer") from None


def bool_param(request: web.Request, name: str) -> bool:
    raw = request.query.get(name, "").lower()
    if raw in ("true", "1", "yes", "on"):
        return True
    if raw in ("false", "0", "no", "off"):
        return False
    raise BadRequest(f"{name} must be true or false")


def whole_param(request: web.Request) -> bool:
    """`whole=true` on a test control: its output is written as whole texts even under
    --output-pieces."""
    return "whole" in request.query and bool_param(request, "whole")
