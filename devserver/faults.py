"""Fault and hostile state: what the test controls (controls.py, hostile.py) have switched on,
read where it acts (middleware.py on every /api/v1 request, api.py for the output and task
list modes, hub.py for WebSocket frames). One object per server, shared by all of them and
reset in place, so a reset reaches every holder."""
from __future__ import annotations

from dataclasses import dataclass, field, fields

# Poisoned frames kept (hostile.poison, hostile.reused_event_id): the oldest goes first.
MAX_POISONED = 256


@dataclass
class FaultState:
    fail_count: int = 0
    fail_status: int = 500
    latency_ms: int = 0
    unauthorized: bool = False
    ws_reject_count: int = 0
    ws_reject_status: int = 503
    # Sent as Retry-After with the refused upgrades.
    ws_reject_retry_after: str | None = None
    # Sent as Retry-After with the injected failures (a 429/503 asking the client to wait).
    fail_retry_after: str | None = None
    # How /output misbehaves (see hostile.py).
    output_mode: str = "normal"
    output_skip: int = 0
    # While above 0, GET /mesh/tasks pages forever, one new task of this many KiB a page.
    endless_list_kib: int = 0
    endless_pages_served: int = 0
    # How every /api/v1 request is answered instead (hostile.py `rest_answer`): "" (normally),
    # "redirect" (302 to `rest_redirect_to`), "huge" (an endless JSON body), "malformed".
    rest_answer: str = ""
    rest_redirect_to: str = ""
    # (task_id, seq) -> raw bytes the WebSocket sends instead of the stored frame, live and on
    # every replay (REST keeps serving the stored one).
    poisoned: dict[tuple[str, int], bytes] = field(default_factory=dict)
    # Replays end without `resync.done` (hostile.no_resync_done).
    withhold_resync_done: bool = False

    def poison(self, task_id: str, seq: int, raw: bytes) -> None:
        if len(self.poisoned) >= MAX_POISONED:
            self.poisoned.pop(next(iter(self.poisoned)))
        self.poisoned[(task_id, seq)] = raw

    def reset(self) -> None:
        fresh = FaultState()
        for f in fields(self):
            setattr(self, f.name, getattr(fresh, f.name))
