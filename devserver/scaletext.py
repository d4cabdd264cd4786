"""Titles and plans for a large mesh (`--seed-scale`), realistic enough that list sizes and
filters are not flattered by tiny rows: titles in English, Japanese or both, made from parts
(tens of thousands of distinct ones), and plans of a few hundred bytes to a few KB of
markdown. Plans come from a pool built once per seed (`PLAN_POOL` bodies under the task's
title): a seeded task stores which one it has and the text is made when it is served
(`views.task`), so 200,000 tasks cost neither 200,000 markdown documents nor their bytes in
the database."""
from __future__ import annotations

import math
from random import Random

import textgen

EN_VERBS = ["Migrate", "Fix", "Add", "Profile", "Harden", "Document", "Refactor", "Investigate", "Backfill",
            "Replace", "Split", "Audit", "Cache", "Reduce", "Clean up", "Rotate", "Retry", "Index", "Paginate",
            "Benchmark", "Upgrade", "Trim", "Validate", "Monitor", "Deprecate", "Parallelise"]
EN_OBJECTS = ["ledger writes", "the WebSocket reconnect path", "rate limiting on /api/v1/orders",
              "the iOS client cold start", "webhook signature checks", "contracts.phase", "the mesh scheduler queue",
              "daemon heartbeats", "the resync protocol", "stale feature flags", "the billing export",
              "search indexing", "payment retries", "audit log rotation", "localisation files",
              "the container image", "the Linux CI runners", "the task output viewer", "API key rotation",
              "listen transcripts", "the orders table", "the supervisor's question queue", "tenant quotas",
              "the OpenAPI reference", "completed_at timestamps", "the seq allocator", "Router.swift",
              "the nightly backup job", "TLS certificate renewal", "the notifications fan-out"]
EN_TAILS = ["", "", "", " for the EU region", " behind a feature flag", " before the 6.3 release", " (follow-up)",
            " on the Linux runners", " in staging first", " for large tenants", " without downtime",
            " after the incident review", " (p99 under 100 ms)"]
JA_OBJECTS = ["監査ログ", "決済API", "翻訳ファイル", "契約フェーズ遷移", "スケジューラ", "Webhook署名", "ハートビート",
              "検索インデックス", "請求エクスポート", "通知配信", "APIキー", "バックアップ", "証明書更新", "テナント上限"]
JA_ACTIONS = ["のローテーション", "のリトライ設計", "の整理", "のテスト追加", "の高速化", "の移行", "の調査", "の文書化",
              "の見直し", "の監視強化"]
PLAN_POOL = 2048
PLAN_MIN_BYTES, PLAN_MAX_BYTES = 300, 4096


def title(r: Random) -> str:
    """One task title: English (60 %), Japanese · English (25 %) or Japanese (15 %)."""
    x = r.random()
    en = f"{r.choice(EN_VERBS)} {r.choice(EN_OBJECTS)}{r.choice(EN_TAILS)}"
    if x < 0.60:
        return en
    ja = f"{r.choice(JA_OBJECTS)}{r.choice(JA_ACTIONS)}"
    return f"{ja} · {en[0].lower()}{en[1:]}" if x < 0.85 else ja


def _section(r: Random) -> str:
    kind = r.random()
    if kind < 0.35:
        return f"## {r.choice(textgen.OPENERS)}\n\n{textgen.prose(r, r.randint(1, 4))}\n"
    if kind < 0.50:
        return "## 背景 · Context\n\n" + " ".join(r.sample(textgen.PROSE_JA, r.randint(1, 3))) + "\n"
    if kind < 0.75:
        steps = r.sample(textgen.LIST_ITEMS, r.randint(2, 6))
        return "## Steps\n\n" + "".join(f"{i + 1}. {s}\n" for i, s in enumerate(steps))
    if kind < 0.88:
        return f"## Sketch\n\n```swift\n{r.choice(textgen.SWIFT_SNIPPETS)}\n```\n"
    if kind < 0.94:
        lang, code = r.choice(textgen.OTHER_SNIPPETS)
        return f"## Sketch\n\n```{lang}\n{code}\n```\n"
    return f"## Check\n\n```bash\n{r.choice(textgen.BASH_SNIPPETS)}\n```\n"


def _plan_body(r: Random) -> str:
    # Log-uniform between the two sizes: most plans are short, some run to a few KB.
    target = int(math.exp(r.uniform(math.log(PLAN_MIN_BYTES), math.log(PLAN_MAX_BYTES))))
    parts = []
    size = 0
    while size < target - 120:
        part = _section(r)
        parts.append(part)
        size += len(part.encode())
    parts.append("## Done when\n\n- tests pass on the Linux runner\n- the completion gate is ready\n")
    return "\n".join(parts)


def plan_pool(seed_value: int) -> list[str]:
    r = Random(f"{seed_value}:scaleplans")
    return [_plan_body(r) for _ in range(PLAN_POOL)]


_pools: dict[int, list[str]] = {}


def pooled_plan(seed_value: int, k: int, title: str | None) -> str:
    """The plan of a task that holds plan `k` of its seed's pool: the pool's body under the
    task's title. Made when served; the pool is built once per seed."""
    pool = _pools.get(seed_value)
    if pool is None:
        pool = _pools.setdefault(seed_value, plan_pool(seed_value))
    return f"# {title or 'Task'}\n\n{pool[k % len(pool)]}"
