"""A large mesh for the scale benchmark (`--seed-scale TASKS,DAEMONS`): the ordinary seed plus
bulk-inserted daemons, contracts and tasks up to the totals asked for. Every added task has
one `task.status` event (its status when seeded), so `/output`, resync and the WebSocket know
it. Content is a pure function of the seed; rows go in with executemany, a few hundred
milliseconds for 10,000 tasks."""
from __future__ import annotations

import time
from random import Random

import scaletext
import util
from mesh import Mesh
from util import det_uuid, dumps

MAX_TASKS = 200_000
SEED_CHUNK = 10_000
SEED_CACHE_KIB = 128 * 1024
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


def _uuid4(n: int) -> str:
    """`str(uuid.UUID(int=n, version=4))` without the object (a third of the seed's time)."""
    n = (n & ~(0xC000 << 48) | (0x8000 << 48)) & ~(0xF000 << 64) | (4 << 76)
    h = "%032x" % n
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _rfc3339_us(t: float) -> str:
    """`util.rfc3339(t, "us")` by `time.strftime` (datetime's was the seed's slowest call)."""
    whole = int(t)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + ".%06dZ" % int((t - whole) * 1_000_000)


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
    now = util.now()
    have_daemons = store.one("SELECT COUNT(*), COALESCE(MAX(ord), -1) FROM daemons")
    have_tasks = store.one("SELECT COUNT(*) FROM tasks")[0]
    add_daemons = max(0, daemons - have_daemons[0])
    add_tasks = max(0, tasks - have_tasks)
    add_contracts = add_tasks // 100
    # Rows keyed by random UUIDs land all over the tables' B-trees: with SQLite's default 2 MB
    # page cache, 200,000 of them took most of the seed's time in page reads.
    (cache_pages,) = store.one("PRAGMA cache_size")
    store.db.execute(f"PRAGMA cache_size=-{SEED_CACHE_KIB}")
    try:
        added = _seed(store, r, seed_value, now, have_daemons, add_daemons, add_contracts, add_tasks)
    finally:
        store.db.execute(f"PRAGMA cache_size={int(cache_pages)}")
    store.set_meta("seed_scale", f"{tasks},{daemons}")
    return added


def _seed(store, r: Random, seed_value: int, now: float, have_daemons, add_daemons: int, add_contracts: int,
          add_tasks: int) -> dict:
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
        priorities = ("low", "normal", "high")
        eid = store.next_event_id
        added_ids = []
        # In chunks: 200,000 tasks with plans of a few KB are hundreds of MB as Python rows.
        for chunk_start in range(0, add_tasks, SEED_CHUNK):
            task_rows, event_rows = [], []
            for _ in range(min(SEED_CHUNK, add_tasks - chunk_start)):
                status = statuses[int(r.random() * len(statuses))]
                title = scaletext.title(r)
                created = now - 3600 * r.uniform(0.1, 24 * 30)
                updated = min(now - 1, created + r.uniform(1, 3600 * 6))
                if status in ("running", "queued"):
                    daemon = online[int(r.random() * len(online))]
                elif status == "pending":
                    daemon = None
                else:
                    daemon = every_daemon[int(r.random() * len(every_daemon))]
                contract = contracts[int(r.random() * len(contracts))] if contracts and r.random() < 0.85 else None
                completed = updated if status in ("completed", "failed", "cancelled") else None
                tid = _uuid4(r.getrandbits(128))
                # The plan is made when served (scaletext.pooled_plan); the row says which.
                extra = (f'{{"priority":"{priorities[int(r.random() * 3)]}","tags":["scale"],'
                         f'"_plan":[{seed_value},{int(r.random() * scaletext.PLAN_POOL)}]}}')
                task_rows.append((tid, contract, None, title, "", status, daemon, created, updated, completed,
                                  1, 0, extra))
                # The frame as `dumps` would write it (every value here is plain ASCII).
                frame = (f'{{"event_id":{eid},"task_id":"{tid}","seq":1,"type":"task.status",'
                         f'"ts":"{_rfc3339_us(updated)}","data":{{"status":"{status}"}}}}')
                event_rows.append((eid, tid, 1, "task.status", frame))
                added_ids.append(tid)
                eid += 1
            store.db.executemany(
                "INSERT INTO tasks(id, contract_id, parent_id, title, plan, status, daemon_id, created_at, updated_at,"
                " completed_at, last_seq, sim_step, extra) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)", task_rows)
            store.db.executemany("INSERT INTO events(event_id, task_id, seq, type, frame) VALUES(?,?,?,?,?)",
                                 event_rows)
        store.next_event_id = eid
    for tid in added_ids:  # once committed (a rolled-back seed leaves the counters as they were)
        store.last_seq[tid] = 1
    return {"daemons": add_daemons, "contracts": add_contracts, "tasks": add_tasks}
