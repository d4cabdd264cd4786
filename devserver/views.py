"""Rows to the JSON shapes served under /api/v1 (docs/api.md, plus a few extra fields
that clients must ignore). Timestamp styles differ per field on purpose (see util.rfc3339)."""
from __future__ import annotations

import scaletext
from store import Store, load_json
from util import rfc3339


def daemon(row, running: int) -> dict:
    out = {
        "id": row["id"],
        "hostname": row["hostname"],
        "status": row["status"],
        "last_heartbeat": rfc3339(row["last_heartbeat"], "ms"),
        "version": row["version"],
        "running_tasks": running,
        "max_concurrent_tasks": row["max_concurrent_tasks"],
    }
    out.update(load_json(row["extra"], {}))
    return out


def contract(row, task_count: int | None = None) -> dict:
    out = {
        "id": row["id"],
        "name": row["name"],
        "phase": row["phase"],
        "status": row["status"],
        "autonomous_loop": bool(row["autonomous_loop"]),
        "description": row["description"],
        "created_at": rfc3339(row["created_at"], "s"),
        "updated_at": rfc3339(row["updated_at"], "s"),
    }
    out.update(load_json(row["extra"], {}))
    if task_count is not None:
        out["task_count"] = task_count
    return out


def task(row) -> dict:
    out = {
        "id": row["id"],
        "contract_id": row["contract_id"],
        "parent_id": row["parent_id"],
        "title": row["title"],
        "plan": row["plan"],
        "status": row["status"],
        "daemon_id": row["daemon_id"],
        "created_at": rfc3339(row["created_at"], "ms"),
        "updated_at": rfc3339(row["updated_at"], "us"),
        "completed_at": rfc3339(row["completed_at"], "s"),
        "last_seq": row["last_seq"],
    }
    extra = load_json(row["extra"], {})
    # A `--seed-scale` task keeps which plan of its seed's pool it has, not the text
    # (scaletext.py): 200,000 plans of a few KB would make the database hundreds of MB.
    pooled = extra.pop("_plan", None)
    if pooled is not None:
        out["plan"] = scaletext.pooled_plan(pooled[0], pooled[1], row["title"])
    out.update(extra)
    return out


def directive(row) -> dict:
    q = load_json(row["question"])
    pending = None
    if q:
        pending = {"id": q["id"], "text": q["text"], "asked_at": rfc3339(q["asked_at"], "ms"),
                   "task_id": q.get("task_id")}
    out = {
        "id": row["id"],
        "title": row["title"],
        "status": row["status"],
        "contract_id": row["contract_id"],
        "has_pending_question": pending is not None,
        "pending_question": pending,
        "updated_at": rfc3339(row["updated_at"], "s"),
    }
    out.update(load_json(row["extra"], {}))
    return out


def listen_session(row, with_transcript: bool) -> dict:
    lines = load_json(row["transcript"], [])
    preview = " ".join(l["text"] for l in lines[:2])
    if len(preview) > 140:
        preview = preview[:139] + "…"
    out = {
        "id": row["id"],
        "title": row["title"],
        "started_at": rfc3339(row["started_at"], "jst"),
        "ended_at": rfc3339(row["ended_at"], "jst"),
        "transcript_preview": preview or None,
        "line_count": len(lines),
    }
    out.update(load_json(row["extra"], {}))
    if with_transcript:
        out["transcript"] = [
            {k: v for k, v in (("speaker", l.get("speaker")), ("text", l["text"]),
                               ("at", rfc3339(l.get("at"), "ms"))) if v is not None or k == "speaker"}
            for l in lines
        ]
    return out


def api_key(row) -> dict:
    return {
        "id": row["id"],
        "prefix": row["prefix"],
        "name": row["name"],
        "created_at": rfc3339(row["created_at"], "s"),
        "last_used_at": rfc3339(row["last_used_at"], "ms"),
        "scopes": ["mesh:read", "contracts:read"],
    }


def running_by_daemon(store: Store) -> dict[str, int]:
    return {r[0]: r[1] for r in store.all(
        "SELECT daemon_id, COUNT(*) FROM tasks WHERE status='running' AND daemon_id IS NOT NULL GROUP BY daemon_id")}
