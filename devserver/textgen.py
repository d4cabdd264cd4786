"""Believable text for the simulated mesh: task titles, plans, output scripts, supervisor
questions, listen transcripts. Everything is a pure function of a Random, so the same seed
gives the same words."""
from __future__ import annotations

from random import Random

ESC = "\x1b"
GREEN, RED, YELLOW, DIM, BOLD, ORANGE, RESET = (f"{ESC}[32m", f"{ESC}[1;31m", f"{ESC}[33m", f"{ESC}[2m",
                                                f"{ESC}[1m", f"{ESC}[38;5;208m", f"{ESC}[0m")

TASK_TITLES = [
    "Migrate ledger writes to batched upserts",
    "Fix flaky WebSocket reconnect test",
    "Add rate limiting to /api/v1/orders",
    "Profile cold start of the iOS client",
    "監査ログのローテーション · rotate audit logs",
    "Write migration for contracts.phase",
    "Harden webhook signature checks",
    "翻訳ファイルの整理 · tidy localisation files",
    "Bump the Swift toolchain to 6.3",
    "Trim the container image below 200 MB",
    "Investigate p99 latency spike in the mesh scheduler",
    "Generate API reference from the OpenAPI spec",
    "Backfill missing completed_at timestamps",
    "Replace polling with WebSocket push on Home",
    "決済APIのリトライ設計 · payment API retry design",
    "Add property tests for the seq allocator",
    "Split the monolithic Router.swift",
    "Audit terminal escape handling in task output",
    "Document the resync protocol",
    "Cache daemon heartbeats in Redis",
    "Reduce CI wall time on the Linux runners",
    "契約フェーズ遷移のテスト · contract phase transition tests",
    "Clean up feature flags older than 90 days",
    "Add structured logging to the supervisor",
]

OPENERS = ["Plan", "Approach", "Context", "What I found", "Starting point", "方針 · Plan"]

PROSE = [
    "I read through `{file}` first to see how the current code path handles retries.",
    "The failing case only shows up when two writers race on the same **contract id**.",
    "Nothing in the logs points at the database; the stall is in the scheduler's queue.",
    "I'll keep the change small: one new function, one call site, and a test that fails without it.",
    "The existing tests cover the happy path only, so I'm adding cases for empty input and timeouts.",
    "This matches what the supervisor asked for in the directive, with one caveat noted below.",
    "Benchmarks before the change: 41 ms median, 180 ms p99. Target is under 100 ms p99.",
    "`{file}` mixes parsing and I/O; splitting them makes the parser testable on its own.",
    "The migration is reversible: `down` restores the old column and copies the data back.",
    "I confirmed the behaviour against the staging daemon `kestrel.mesh.local` before touching prod config.",
    "There is a subtle ordering issue: the ack is sent before the write is durable.",
    "Reading the upstream changelog, the breaking change is limited to the `Codable` conformance.",
    "No secrets appear in the diff; the key is read from the environment at start-up.",
]

PROSE_JA = [
    "テストはすべて通過しました。次にマイグレーションを確認します。",
    "スケジューラのキューで待ち時間が発生しています。原因を調査中です。",
    "この変更は後方互換です。古いクライアントも引き続き動作します。",
    "監督者への質問: ステージング環境で先に検証してよいですか?",
    "ログのローテーションは毎日 03:00 JST に実行されます。",
]

FILES = ["Sources/Ledger/BatchWriter.swift", "Sources/Mesh/Scheduler.swift", "src/server/auth.rs",
         "Sources/API/Router.swift", "migrations/0042_contract_phase.sql", "Tests/LedgerTests/BatchTests.swift",
         "scripts/ci/cache.sh", "Sources/Sync/Resync.swift"]

LIST_ITEMS = [
    "add an index on `tasks(contract_id, updated_at)`",
    "move the retry loop out of the request handler",
    "cap the backoff at 30 s with jitter",
    "log the task id, never the API key",
    "write the failing test first",
    "keep the old endpoint for one release",
    "update `docs/api.md` with the new field",
    "check the CJK width of the new labels (契約, 命令)",
    "run the benchmark again on the release build",
    "ask the supervisor before touching production data",
]

SWIFT_SNIPPETS = [
    """struct BatchWriter {
    let db: Database
    func write(_ rows: [LedgerRow]) throws {
        try db.transaction {
            for row in rows { try db.upsert(row) }
        }
    }
}""",
    """func backoff(attempt: Int) -> Duration {
    let base = min(30.0, pow(2.0, Double(attempt)))
    return .milliseconds(Int(base * 1000 * Double.random(in: 0.8...1.2)))
}""",
    """@Test func resyncReplaysMissedEvents() async throws {
    let server = try await DevServer.start()
    let events = try await server.replay(after: ["t-1": 3])
    #expect(events.map(\\.seq) == [4, 5, 6])
}""",
    """enum Phase: String, Codable {
    case planning, executing, review, done
}""",
    """extension Scheduler {
    /// Picks the least loaded online daemon; ties go to the oldest heartbeat.
    func pick(_ daemons: [Daemon]) -> Daemon? {
        daemons.filter(\\.isOnline).min { $0.load < $1.load }
    }
}""",
]

BASH_SNIPPETS = [
    "swift build -c release 2>&1 | tail -n 5",
    "swift test --filter LedgerTests",
    "git diff --stat origin/main...HEAD",
    "psql \"$DATABASE_URL\" -c 'EXPLAIN ANALYZE SELECT * FROM tasks WHERE status = $$running$$;'",
    "rg -n 'retry' Sources/ | head -20",
    "docker build -t makima/daemon:dev . && docker images makima/daemon",
    "curl -s -H \"x-makima-api-key: $MAKIMA_API_KEY\" http://127.0.0.1:8787/api/v1/mesh/daemons | jq length",
]

OTHER_SNIPPETS = [
    ("python", 'def backoff(attempt: int) -> float:\n    """Capped exponential backoff."""\n    return min(30.0, 2 ** attempt)  # seconds'),
    ("json", '{\n  "task_id": "t_42",\n  "ready": true,\n  "retries": 3,\n  "note": null\n}'),
    ("yaml", "runner:\n  image: swift:6.0\n  retries: 3  # per job\n  cache: true"),
    ("diff", "--- a/Sources/Ledger/BatchWriter.swift\n+++ b/Sources/Ledger/BatchWriter.swift\n@@ -12,3 +12,3 @@\n"
             "-            try db.insert(row)\n+            try db.upsert(row)\n         }"),
    ("rust", "fn pick(daemons: &[Daemon]) -> Option<&Daemon> {\n    daemons.iter().filter(|d| d.online).min_by_key(|d| d.load)\n}"),
    ("typescript", "export async function fetchTasks(status: string): Promise<Task[]> {\n"
                   "  const res = await fetch(`/api/v1/mesh/tasks?status=${status}`);\n  return res.json();\n}"),
]

TABLE_ROWS = [("parse", "完了 · done", "12"), ("write", "running", "140"), ("index", "契約 待ち", "—"),
              ("verify", "queued", "0")]

TOOL_CALLS = [
    ("Bash", '{"command": "swift test --filter LedgerTests"}'),
    ("Read", '{"path": "{file}"}'),
    ("Edit", '{"path": "{file}", "old": "try db.insert(row)", "new": "try db.upsert(row)"}'),
    ("Grep", '{"pattern": "retry", "path": "Sources/"}'),
    ("Bash", '{"command": "git status --short"}'),
]

TOOL_RESULTS = [
    "Building for debugging...\n[4/4] Compiling LedgerKit BatchWriter.swift\nBuild complete! (3.41s)\n",
    f"{GREEN}✔{RESET} Test run with 42 tests passed after 1.204 seconds.\n",
    f"Test Suite 'LedgerTests' started\n{GREEN}ok{RESET}   batchWriteIsAtomic (0.012s)\n"
    f"{GREEN}ok{RESET}   upsertKeepsCreatedAt (0.004s)\n{RED}FAIL{RESET} concurrentWritersDoNotDeadlock (1.001s)\n",
    " M Sources/Ledger/BatchWriter.swift\n M Tests/LedgerTests/BatchTests.swift\n?? migrations/0043_batch_index.sql\n",
    f"{DIM}Sources/Mesh/Scheduler.swift{RESET}:88:        // retry with backoff\n"
    f"{DIM}Sources/Sync/Resync.swift{RESET}:17:    let retry = Backoff(cap: .seconds(30))\n",
    f"{BOLD}3 files changed{RESET}, {GREEN}41 insertions(+){RESET}, {RED}12 deletions(-){RESET}\n",
    f"{ORANGE}warning{RESET}: 2 deprecated calls remain in {DIM}Sources/API/Router.swift{RESET}\n",
]

STDERR_LINES = [
    "warning: 'flatMap' is deprecated: use 'compactMap' instead\n",
    "error: connection to postgres refused (retrying in 2s)\n",
    "npm WARN deprecated inflight@1.0.6: This module is not supported\n",
    "thread 'scheduler' panicked at 'queue lock poisoned', src/mesh/scheduler.rs:211:9\n",
    f"{YELLOW}warn{RESET}: heartbeat from osprey.mesh.local is 12s late\n",
]

# Output that tries to drive the terminal (title, clear screen, clipboard, DCS, cursor moves).
# Rare on purpose: clients must show it as text, never act on it.
HOSTILE = (f"tool output with escapes: {ESC}]0;owned-title\x07{ESC}[2J{ESC}[Hcleared? "
           f"{ESC}]52;c;ZXZpbA==\x07clipboard? {ESC}P1$qm{ESC}\\ dcs? {ESC}[?1049l alt? \rCR-overwrite\x08\n")

QUESTIONS = [
    "Should I roll back migration 0042 on staging, or wait for the DBA?",
    "The flaky test fails 1 in 40 runs. Quarantine it or block the merge?",
    "Two daemons disagree on the contract phase. Which one wins?",
    "本番データに触れる前に確認させてください。続行してよいですか?",
    "The upstream API changed its rate limits. Lower our concurrency to 2?",
    "CI cost is over budget this week. Pause the nightly benchmarks?",
]

GATE_SUMMARIES_OK = [
    "Batched upserts land in one transaction; tests green.",
    "Reconnect test is deterministic now (fake clock).",
    "Rate limiter in place with per-key buckets; docs updated.",
    "すべてのテストが通過しました · all tests pass.",
    "Migration applied and reversible; benchmark p99 down to 72 ms.",
]

GATE_SUMMARIES_FAIL = [
    "Blocked: staging database unreachable.",
    "Tests still fail on concurrent writers; needs a design decision.",
    "Upstream dependency pinned to a broken release.",
]

FAIL_REASONS = ["tests failing", "daemon lost connection", "completion gate not ready",
                "timeout after 45m", "supervisor declined the plan"]

SPEAKERS = ["Operator", "Makima", "kestrel", "Reviewer", None]

TRANSCRIPT_LINES = [
    "Let's start with the mesh: how many daemons are online right now?",
    "Four online, two offline. condor has been offline since last night.",
    "What's blocking the payment migration?",
    "A supervisor question on migration 0042; it's waiting for a human.",
    "Okay, I'll answer that after this call.",
    "ledger の書き込みはバッチ化できました。",
    "The reconnect test was flaky because of wall-clock timing; it uses a fake clock now.",
    "Can we get the p99 under 100 milliseconds before Friday?",
    "Probably. The index on contract_id helps most.",
    "次の契約はオンボーディング改善です。",
    "Remind me to archive the legacy REST contract.",
    "Noted. I'll add it to the directive.",
    "Anything failing right now?",
    "One task failed: the webhook signature check, daemon lost connection mid-run.",
    "Retry it on merlin then.",
    "了解です。",
]


def task_title(r: Random) -> str:
    return r.choice(TASK_TITLES)


def _fill(r: Random, text: str) -> str:
    return text.replace("{file}", r.choice(FILES))


def prose(r: Random, sentences: int = 2) -> str:
    return " ".join(_fill(r, r.choice(PROSE)) for _ in range(sentences))


def task_plan(r: Random, title: str) -> str:
    steps = r.sample(LIST_ITEMS, 3)
    return (f"# {title}\n\n{prose(r, 1)}\n\n## Steps\n\n"
            + "".join(f"{i + 1}. {s}\n" for i, s in enumerate(steps))
            + "\n## Done when\n\n- tests pass on the Linux runner\n- the completion gate is ready\n")


def _block(r: Random, kind: str) -> list[tuple[str, str]]:
    """One logical block of output as (text, stream) chunks."""
    if kind == "prose":
        return [(prose(r, r.randint(1, 3)) + "\n\n", "assistant")]
    if kind == "ja":
        return [(r.choice(PROSE_JA) + "\n\n", "assistant")]
    if kind == "heading":
        return [(f"### {r.choice(['Step', 'Check', 'Next'])} {r.randint(1, 9)}: {r.choice(LIST_ITEMS)}\n\n", "assistant")]
    if kind == "list":
        items = r.sample(LIST_ITEMS, r.randint(2, 5))
        if r.random() < 0.5:
            body = "".join(f"- {i}\n" for i in items)
        else:
            body = "".join(f"{n + 1}. {i}\n" for n, i in enumerate(items))
        return [(body + "\n", "assistant")]
    if kind == "swift":
        return [("```swift\n" + r.choice(SWIFT_SNIPPETS) + "\n```\n\n", "assistant")]
    if kind == "bash":
        cmds = r.sample(BASH_SNIPPETS, r.randint(1, 3))
        return [("```bash\n" + "\n".join(cmds) + "\n```\n\n", "assistant")]
    if kind == "code":
        lang, code = r.choice(OTHER_SNIPPETS)
        return [(f"```{lang}\n{code}\n```\n\n", "assistant")]
    if kind == "table":
        rows = r.sample(TABLE_ROWS, 3)
        body = "| Step | 状態 · state | ms |\n|:-----|:----:|---:|\n" + "".join(f"| {a} | {b} | {c} |\n" for a, b, c in rows)
        return [(body + "\n", "assistant")]
    if kind == "tasks":
        items = r.sample(LIST_ITEMS, 3)
        return [("".join(f"- [{'x' if n == 0 else ' '}] {i}\n" for n, i in enumerate(items)) + "\n", "assistant")]
    if kind == "quote":
        return [(f"> {prose(r, 1)}\n> See [the runbook](https://makima.jp/docs/runbook) first.\n\n", "assistant")]
    if kind == "tool":
        name, args = r.choice(TOOL_CALLS)
        return [(f"→ tool_use: {name} {_fill(r, args)}\n", "tool"), (r.choice(TOOL_RESULTS), "tool")]
    if kind == "stderr":
        return [(r.choice(STDERR_LINES), "stderr")]
    if kind == "hostile":
        return [(HOSTILE, "tool")]
    raise ValueError(kind)


def _split(r: Random, text: str) -> list[str]:
    """Streams split text anywhere a token might end: code at a newline, prose at a space;
    never inside an escape sequence (no ESC in the split candidates' neighbourhood)."""
    if len(text) < 24 or ESC in text:
        return [text]
    sep = "\n" if text.startswith("```") else " "
    cuts = [i + 1 for i, ch in enumerate(text[:-2]) if ch == sep and i > 4]
    if not cuts:
        return [text]
    cut = r.choice(cuts)
    return [text[:cut], text[cut:]]


KINDS = ["prose", "ja", "heading", "list", "swift", "bash", "tool", "stderr", "hostile", "code", "table", "tasks",
         "quote"]
WEIGHTS = [30, 5, 8, 10, 8, 8, 18, 5, 0.6, 6, 4, 4, 3]


def gate_block(ready: bool, summary: str, extra: str | None = None) -> str:
    lines = ["<COMPLETION_GATE>", f"ready: {'true' if ready else 'false'}", f"summary: {summary}"]
    if extra:
        lines.append(extra)
    lines.append("</COMPLETION_GATE>")
    return "\n".join(lines)


def build_script(seed: int, task_id: str, hostile: bool = False,
                 outcome: str | None = None) -> list[tuple[str, dict]]:
    """The whole life of a task after it is queued: (event type, data) items in order.
    A pure function of (seed, task id), so a restart picks up where the task left off.
    `outcome` ("completed"/"failed") forces the ending (the seed uses it for fixed counts)."""
    r = Random(f"{seed}:script:{task_id}")
    items: list[tuple[str, dict]] = [("task.status", {"status": "running", "previous": "queued"})]

    def out(text: str, stream: str) -> None:
        items.append(("task.output", {"text": text, "stream": stream}))

    out(f"## {r.choice(OPENERS)}\n\n{prose(r, 2)}\n\n", "assistant")
    if hostile:
        out(HOSTILE, "tool")
    for _ in range(r.randint(5, 18)):
        for text, stream in _block(r, r.choices(KINDS, WEIGHTS)[0]):
            for piece in (_split(r, text) if r.random() < 0.3 else [text]):
                out(piece, stream)
    if r.random() < 0.2:
        # A not-ready gate in the middle of the run, as daemons do when they re-check.
        out(gate_block(False, "tests still running", "blockers: waiting for CI") + "\n\n", "assistant")
        out(prose(r, 1) + "\n\n", "assistant")
    ready = r.random() < 0.8
    if outcome is not None:
        ready = outcome == "completed"
    summary = r.choice(GATE_SUMMARIES_OK if ready else GATE_SUMMARIES_FAIL)
    extra = f"files_changed: {r.randint(1, 9)}" if ready else "blockers: " + r.choice(FAIL_REASONS)
    body = gate_block(ready, summary, extra)
    out("Wrapping up.\n\n" + body + "\n", "assistant")
    items.append(("task.completion_gate", {"ready": ready, "summary": summary, "body": body}))
    if ready:
        items.append(("task.status", {"status": "completed", "previous": "running"}))
    else:
        items.append(("task.status", {"status": "failed", "previous": "running", "reason": r.choice(FAIL_REASONS)}))
    return items


def question(r: Random) -> str:
    return r.choice(QUESTIONS)


def transcript(r: Random, start: float, n: int) -> list[dict]:
    lines = []
    t = start
    for _ in range(n):
        t += r.uniform(4, 40)
        line = {"speaker": r.choice(SPEAKERS), "text": r.choice(TRANSCRIPT_LINES)}
        if r.random() < 0.85:
            line["at"] = t
        lines.append(line)
    return lines
