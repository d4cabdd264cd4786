"""The mesh a fresh database starts with. Content and ids are a pure function of the seed;
timestamps are relative to the moment of seeding."""
from __future__ import annotations

import json
from random import Random

import textgen
import util
from mesh import Mesh
from util import det_uuid, dumps

DAEMONS = [  # hostname, status, version, max tasks
    ("kestrel.mesh.local", "online", "0.14.2", 4),
    ("osprey.mesh.local", "online", "0.14.2", 4),
    ("merlin.mesh.local", "busy", "0.14.1", 2),
    ("harrier.mesh.local", "online", "0.15.0-rc.1", 8),
    ("falcon.mesh.local", "offline", "0.13.9", 4),
    ("condor.mesh.local", "offline", "0.14.2", 4),
]

CONTRACTS = [  # name, status, phase, autonomous loop, description
    ("決済フロー移行 · Payment flow migration", "active", "executing", True,
     "Move card payments from the legacy gateway to the new one without downtime. 旧ゲートウェイからの移行。"),
    ("Mesh scheduler hardening", "active", "review", False,
     "Make task placement survive daemon churn; p99 scheduling latency under 100 ms."),
    ("Terminal dashboard v1 · ターミナル版ダッシュボード", "active", "executing", True,
     "A full-screen terminal client for operators who keep the mesh open in tmux for days."),
    ("オンボーディング改善 · Onboarding polish", "active", "planning", False,
     "新規ユーザーが五分以内に最初のタスクを実行できるようにする。"),
    ("Audit log retention", "active", "executing", False, None),
    ("Webhook signatures", "completed", "done", False, "HMAC-SHA256 signatures on every outgoing webhook."),
    ("ローカライズ · Localization pass", "completed", "done", True, "日本語と英語の文言を揃える。"),
    ("CI cache warm-up", "completed", "done", False, "Cut cold CI runs from 14 to 6 minutes."),
    ("Legacy REST v0 shutdown", "archived", "done", False, "Retired: every client moved to /api/v1."),
    ("Voice listen prototype · 聴取プロトタイプ", "archived", "planning", False, None),
]

# Task statuses per contract; running tasks go to online daemons.
TASK_PLAN = {
    0: ["completed", "completed", "running", "queued", "failed", "pending"],
    1: ["completed", "running", "completed", "cancelled", "pending"],
    2: ["completed", "completed", "completed", "running", "queued", "failed"],
    3: ["pending", "pending", "queued"],
    4: ["completed", "running", "failed", "completed"],
    5: ["completed", "completed", "completed"],
    6: ["completed", "completed"],
    7: ["completed", "failed", "completed"],
    8: ["cancelled", "completed"],
    9: ["cancelled"],
}
LOOSE_TASKS = ["completed", "failed", "queued"]  # tasks with no contract

DIRECTIVES = [  # title, status, contract index, pending question index or None
    ("Keep the payment migration moving", "active", 0, 0),
    ("Stabilise the mesh before the release", "active", 1, None),
    ("週次レポートを準備 · Prepare the weekly report", "active", None, 3),
    ("Reduce CI cost by 20 %", "paused", 7, None),
    ("Retire the v0 API", "completed", 8, None),
]

SESSIONS = [  # title, hours ago, minutes long (None = still recording), lines
    ("Morning stand-up · 朝会", 2, 14, 12),
    ("Incident review: scheduler stall", 26, 41, 18),
    ("契約レビュー · Contract review", 50, 22, 9),
    ("Design sync: terminal dashboard", 75, 33, 15),
    (None, 120, 6, 4),
    ("Live: release checklist", 0.2, None, 6),
]


def seed(mesh: Mesh, seed_value: int) -> None:
    store = mesh.store
    r = Random(f"{seed_value}:seed")
    now = util.now()
    with store.tx() as _pending:
        daemon_ids = []
        for i, (host, status, version, cap) in enumerate(DAEMONS):
            did = det_uuid(r)
            daemon_ids.append((did, status))
            hb = now - r.uniform(1, 8) if status != "offline" else now - r.uniform(3600, 90000)
            extra = {"region": r.choice(["ap-northeast-1", "eu-west-1", "us-east-2"]),
                     "labels": ["gpu"] if i % 3 == 0 else [], "uptime_s": int(r.uniform(1e3, 1e6))}
            store.execute("INSERT INTO daemons VALUES(?,?,?,?,?,?,?,?)",
                          (did, i, host, status, hb, version, cap, dumps(extra)))
        online = [d for d, s in daemon_ids if s != "offline"]

        contract_ids = []
        for i, (name, status, phase, loop, desc) in enumerate(CONTRACTS):
            cid = det_uuid(r)
            contract_ids.append(cid)
            created = now - 86400 * r.uniform(3, 60)
            updated = now - 3600 * r.uniform(0.1, 48) if status == "active" else created + 86400 * r.uniform(1, 3)
            extra = {"owner": r.choice(["ops", "payments", "platform"]), "budget": {"tasks": 40, "used": r.randint(3, 39)}}
            store.execute("INSERT INTO contracts VALUES(?,?,?,?,?,?,?,?,?)",
                          (cid, name, phase, status, int(loop), desc, created, updated, dumps(extra)))

        # Tasks and their output history. Events are collected first and written in time
        # order, so event ids grow with timestamps across tasks too.
        history: list[tuple[float, str, str, dict]] = []
        running_ids = []
        hostile_done = False
        specs = [(ci, st) for ci, sts in TASK_PLAN.items() for st in sts] + [(None, st) for st in LOOSE_TASKS]
        first_of_contract: dict[int, str] = {}
        for n, (ci, status) in enumerate(specs):
            tid = det_uuid(r)
            title = textgen.TASK_TITLES[n % len(textgen.TASK_TITLES)]
            hostile = title.startswith("Audit terminal escape") and not hostile_done
            hostile_done = hostile_done or hostile
            created = now - 3600 * r.uniform(0.5, 70) if status in ("running", "queued", "pending") else now - 3600 * r.uniform(5, 400)
            daemon = r.choice(online) if status in ("running", "queued") else (r.choice(daemon_ids)[0] if status != "pending" else None)
            parent = first_of_contract.get(ci) if ci is not None and r.random() < 0.3 else None
            extra = {"priority": r.choice(["low", "normal", "high"]), "tags": ["seed"]}
            if hostile:
                extra["x_hostile_output"] = True
            cid = contract_ids[ci] if ci is not None else None
            store.execute("INSERT INTO tasks(id, contract_id, parent_id, title, plan, status, daemon_id, created_at,"
                          " updated_at, completed_at, last_seq, sim_step, extra) VALUES(?,?,?,?,?,?,?,?,?,NULL,0,0,?)",
                          (tid, cid, parent, title, textgen.task_plan(r, title), "queued" if status != "pending" else "pending",
                           daemon, created, created, dumps(extra)))
            if ci is not None:
                first_of_contract.setdefault(ci, tid)
            t = created
            history.append((t, tid, "task.status", {"status": "pending" if status == "pending" else "queued"}))
            if status in ("pending", "queued"):
                continue
            outcome = status if status in ("completed", "failed") else None
            script = textgen.build_script(seed_value, tid, hostile, outcome)
            if status == "running":
                upto = r.randint(3, max(4, len(script) - 4))
                running_ids.append(tid)
            elif status == "cancelled":
                upto = r.randint(2, max(3, len(script) // 2))
            else:
                # Completed or failed: play the whole script, whatever outcome it holds.
                upto = len(script)
            for etype, data in script[:upto]:
                t += r.uniform(0.4, 20)
                history.append((t, tid, etype, data))
            if status == "cancelled":
                t += r.uniform(1, 30)
                history.append((t, tid, "task.status", {"status": "cancelled", "previous": "running",
                                                         "reason": "cancelled by operator"}))
            store.execute("UPDATE tasks SET sim_step=? WHERE id=?", (upto, tid))

        # Directives, with pending questions asked by running tasks.
        for i, (title, status, ci, qi) in enumerate(DIRECTIVES):
            did = det_uuid(r)
            cid = contract_ids[ci] if ci is not None else None
            question = None
            updated = now - 3600 * r.uniform(1, 100)
            if qi is not None:
                asker = running_ids[i % len(running_ids)]
                asked = now - r.uniform(60, 1800)
                question = {"id": "q_" + det_uuid(r).replace("-", "")[:16], "text": textgen.QUESTIONS[qi],
                            "asked_at": asked, "task_id": asker}
                history.append((asked, asker, "task.supervisor_question",
                                {"question_id": question["id"], "text": question["text"], "directive_id": did}))
                updated = asked
            extra = {"priority": i + 1, "orders": r.randint(0, 12)}
            store.execute("INSERT INTO directives VALUES(?,?,?,?,?,?,?,?)",
                          (did, i, title, status, cid,
                           json.dumps(question, ensure_ascii=False) if question else None, updated, dumps(extra)))

        # Events must not lie in the future, and their order by time decides ids. Each
        # task's final status, updated_at and completed_at follow its history.
        history.sort(key=lambda h: h[0])
        final: dict[str, tuple[str, float]] = {}
        touched: dict[str, float] = {}
        for t, tid, etype, data in history:
            t = min(t, now - 1)
            store.add_event(tid, etype, data, ts=t)
            touched[tid] = t
            if etype == "task.status":
                final[tid] = (data["status"], t)
        for tid, (status, t) in final.items():
            completed = t if status in ("completed", "failed", "cancelled") else None
            store.execute("UPDATE tasks SET status=?, updated_at=?, completed_at=? WHERE id=?",
                          (status, touched[tid], completed, tid))

        for title, hours, minutes, lines in SESSIONS:
            sid = det_uuid(r)
            start = now - hours * 3600
            end = start + minutes * 60 if minutes is not None else None
            transcript = textgen.transcript(r, start, lines)
            extra = {"language": r.choice(["en", "ja", "mixed"]), "speakers": 2 + r.randint(0, 2)}
            store.execute("INSERT INTO listen_sessions VALUES(?,?,?,?,?,?)",
                          (sid, title, start, end, json.dumps(transcript, ensure_ascii=False), dumps(extra)))

        store.set_meta("seed", seed_value)
        store.set_meta("seeded_at", now)
        store.set_meta("schema_version", "1")

