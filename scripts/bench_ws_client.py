#!/usr/bin/env python3
"""The baseline of `make bench`'s ingest figure: a bare aiohttp client that receives a burst
from the dev server, JSON-decodes every frame and prints its text (to stdout; the bench sends
it to /dev/null). It does what the engine's measurement does around it: subscribe, wait for
the resync to finish, have the dev server prepare a burst, then time from asking for it to
the last event printed.

Usage: bench_ws_client.py URL KEY EVENTS TASKS
(prints `seconds <wall>` and `cpu_seconds <cpu>` on stderr)
"""
import asyncio
import json
import resource
import sys
import time

import aiohttp


async def main(url: str, key: str, events: int, tasks: int) -> None:
    ws_url = url.replace("http", "ws", 1).rstrip("/") + "/api/v1/mesh/tasks/subscribe"
    headers = {"x-makima-api-key": key}
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(ws_url, headers=headers, max_msg_size=8 << 20) as ws:
            await ws.send_str(json.dumps({"type": "resync", "last_seen": {}}))
            async for msg in ws:
                if json.loads(msg.data).get("type") == "resync.done":
                    break
            async with http.post(f"{url}/_dev/burst_prepare?count={events}&tasks={tasks}") as r:
                burst = await r.json()
            wanted = set(burst["task_ids"])
            out = sys.stdout
            started = time.monotonic()
            cpu0 = resource.getrusage(resource.RUSAGE_SELF)
            async with http.post(f"{url}/_dev/burst_send?burst_id={burst['burst_id']}") as r:
                await r.read()
            got = 0
            async for msg in ws:
                event = json.loads(msg.data)
                if event.get("task_id") in wanted and event.get("type") == "task.output":
                    out.write(event["data"]["text"])
                    got += 1
                    if got == burst["count"]:  # events: more than the texts when output comes in pieces
                        break
            out.flush()
            elapsed = time.monotonic() - started
            cpu1 = resource.getrusage(resource.RUSAGE_SELF)
            cpu = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
            print(f"seconds {elapsed:.4f}\ncpu_seconds {cpu:.4f}", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
