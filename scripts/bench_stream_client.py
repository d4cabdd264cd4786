#!/usr/bin/env python3
"""The baseline of `make bench`'s sustained-stream rows: a bare aiohttp client subscribed to the
task event WebSocket that JSON-decodes every frame and writes each output text to stdout (the
bench sends it to /dev/null), until it is stopped. Its CPU is read from /proc by the bench over
the same window as the dashboard's, so both are measured alike.

Usage: bench_stream_client.py URL KEY   (prints READY on stderr once its resync is done)
"""
import asyncio
import json
import sys

import aiohttp


async def main(url: str, key: str) -> None:
    ws_url = url.replace("http", "ws", 1).rstrip("/") + "/api/v1/mesh/tasks/subscribe"
    headers = {"x-makima-api-key": key}
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(ws_url, headers=headers, max_msg_size=8 << 20) as ws:
            await ws.send_str(json.dumps({"type": "resync", "last_seen": {}}))
            out = sys.stdout
            async for msg in ws:
                event = json.loads(msg.data)
                kind = event.get("type")
                if kind == "resync.done":
                    print("READY", file=sys.stderr, flush=True)
                elif kind == "task.output":
                    out.write(event["data"]["text"])


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
