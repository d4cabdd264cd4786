"""A large mesh for the scale benchmark (`--seed-scale TASKS,DAEMONS`): the ordinary seed plus
bulk-inserted daemons, contracts and tasks up to the totals asked for. Every added task has
one `task.status` event (its status when seeded), so `/output`, resync and the WebSocket know
it. Content is a pure function of the seed; rows go in with executemany, a few hundred
milliseconds for 10,000 tasks."""
from __future__ import annotations

import time
from random import Random

import textgen
from mesh import Mesh
from util import det_uuid, dumps, rfc3339

MAX_TASKS = 200_000
MAX_DAEMONS = 20_000
# Task statuses of the added tasks, by weight: enough running ones that the running list is
# longer than one page of /mesh/tasks (so paging decides whether Home's count is right).
STATUS_WEIGHTS = [("completed", 55), ("running", 12), ("failed", 10), ("cancelled", 8), ("queued", 8),
                  ("pending", 7)]
REGIONS = ["ap-northeast-1", "eu-west-1", "us-east-2", "us-west-2"]
VERSIONS = ["0.13.9", "0.14.1", "0.14.2", "0.15.0-rc.1"]
HOST_WORDS = ["kestrel", "osprey", "merlin", "harrier", "falcon", "condor", "heron", "swift", "raven", "ibis",
              "egret", "plover", "tern", "skua", "petrel", "gannet"]
CONTRACT_WORDS = ["Ledger", "Scheduler", "Webhook", "Audit", "Onboarding", "CI", "Billing", "Search", "Mesh",
                  "決済", "監査", "翻訳"]


def parse(spec: str) -> tuple[int, int]:
    """`TASKS,DAEMONS` (e.g. `10000,500`) → the two totals, each within its bound."""
    parts = spec.split(",")
    if len(parts) != 2:
        raise ValueError("--seed-scale takes TASKS,DAEMONS, e.g. 10000,500")
    tasks, daemons = (int(p.strip()) for p in parts)
    if not (0 <= tasks <= MAX_TASKS and 0 <= daemons <= MAX_DAEMONS):
        raise ValueError(f"--seed-scale: at most {MAX_TASKS} tasks and {MAX_DAEMONS} daemons")
    return tasks, daemons


def seed_scale(mesh: Mesh, seed_value: int, tasks: int, daemons: int) -> dict:
    """Adds daemons, contracts and tasks (after `seeddata.seed`) until the mesh holds `tasks`
    tasks and `daemons` daemons. Returns what was added."""
    store = mesh.store
    r = Random(f"{seed_value}:scale")
    now = time.time()
    have_daemons = store.one("SELECT COUNT(*), COALESCE(MAX(ord), -1) FROM daemons")
    have_tasks = store.one("SELECT COUNT(*) FROM tasks")[0]
    add_daemons = max(0, daemons - have_daemons[0])
    add_tasks = max(0, tasks - have_tasks)
    add_contracts = add_tasks // 100
    with store.tx():
        daemon_rows = []
        for i in range(add_daemons):
            status = "offline" if r.random() < 0.15 else ("busy" if r.random() < 0.06 else "online")
            hb = now - r.uniform(1, 8) if status != "offline" else now - r.uniform(3600, 90000)
            host = f"{r.choice(HOST_WORDS)}-{i:04d}.{r.choice(REGIONS)}.mesh.local"
            extra = {"region": r.choice(REGIONS), "labels": ["gpu"] if i % 7 == 0 else [], "scale": True}
            daemon_rows.append((det_uuid(r), have_daemons[1] + 1 + i, host, status, hb, r.choice(VERSIONS),
                                r.choice([2, 4, 8, 16]), dumps(extra)))
        store.db.executemany("INSERT INTO daemons VALUES(?,?,?,?,?,?,?,?)", daemon_rows)
        online = [row[0] for row in store.all("SELECT id FROM daemons WHERE status IN ('online','busy') ORDER BY ord")]
        every_daemon = [row[0] for row in store.all("SELECT id FROM daemons ORDER BY ord")]

        contract_rows = []
        for i in range(add_contracts):
            status = r.choice(["active", "active", "completed", "archived"])
            created = now - 86400 * r.uniform(3, 90)
            updated = now - 3600 * r.uniform(0.1, 200)
            name = f"{r.choice(CONTRACT_WORDS)} {r.choice(['migration', 'hardening', 'cleanup', 'rollout'])} {i:03d}"
            contract_rows.append((det_uuid(r), name, r.choice(["planning", "executing", "review", "done"]), status,
                                  int(r.random() < 0.3), None, created, updated, dumps({"scale": True})))
        store.db.executemany("INSERT INTO contracts VALUES(?,?,?,?,?,?,?,?,?)", contract_rows)
        contracts = [row[0] for row in store.all("SELECT id FROM contracts ORDER BY id")]

        statuses = [s for s, w in STATUS_WEIGHTS for _ in range(w)]
        plans = [textgen.task_plan(Random(f"{seed_value}:scaleplan:{k}"), title)
                 for k, title in enumerate(textgen.TASK_TITLES)]
        task_rows, event_rows = [], []
        eid = store.next_event_id
        for n in range(add_tasks):
            status = r.choice(statuses)
            k = r.randrange(len(textgen.TASK_TITLES))
            title = f"{textgen.TASK_TITLES[k]} · batch {n:05d}"
            created = now - 3600 * r.uniform(0.1, 24 * 30)
            updated = min(now - 1, created + r.uniform(1, 3600 * 6))
            if status in ("running", "queued"):
                daemon = r.choice(online)
            elif status == "pending":
                daemon = None
            else:
                daemon = r.choice(every_daemon)
            contract = r.choice(contracts) if contracts and r.random() < 0.85 else None
            completed = updated if status in ("completed", "failed", "cancelled") else None
            tid = det_uuid(r)
            extra = {"priority": r.choice(["low", "normal", "high"]), "tags": ["scale"]}
            task_rows.append((tid, contract, None, title, plans[k], status, daemon, created, updated, completed,
                              1, 0, dumps(extra)))
            frame = dumps({"event_id": eid, "task_id": tid, "seq": 1, "type": "task.status",
                           "ts": rfc3339(updated, "us"), "data": {"status": status}})
            event_rows.append((eid, tid, 1, "task.status", frame))
            eid += 1
        store.db.executemany(
            "INSERT INTO tasks(id, contract_id, parent_id, title, plan, status, daemon_id, created_at, updated_at,"
            " completed_at, last_seq, sim_step, extra) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)", task_rows)
        store.db.executemany("INSERT INTO events(event_id, task_id, seq, type, frame) VALUES(?,?,?,?,?)", event_rows)
        store.next_event_id = eid
        store.set_meta("seed_scale", f"{tasks},{daemons}")
    for row in task_rows:  # once committed (a rolled-back seed leaves the counters as they were)
        store.last_seq[row[0]] = 1
    return {"daemons": add_daemons, "contracts": add_contracts, "tasks": add_tasks}
