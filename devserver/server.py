#!/usr/bin/env python3
"""Makima-compatible dev server: REST under /api/v1, the task event WebSocket with resync,
a simulated mesh, and test controls. See devserver/README.md."""
from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import os
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from aiohttp import web  # noqa: E402

import api  # noqa: E402
import controls  # noqa: E402
import middleware  # noqa: E402
import pieces  # noqa: E402
import scale  # noqa: E402
import seeddata  # noqa: E402
import util  # noqa: E402
from faults import FaultState  # noqa: E402
from hub import Hub  # noqa: E402
from keys import Keys  # noqa: E402
from mesh import Mesh  # noqa: E402
from simulation import Simulation  # noqa: E402
from store import Store  # noqa: E402
from util import SERVER_NAME, VERSION, is_loopback_host, mask_key  # noqa: E402

log = logging.getLogger("devserver")

DEFAULT_KEY = "mk_demo_local_key_0001"


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="devserver/server.py", description=__doc__)
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8787, help="port to bind; 0 = any free port (default 8787)")
    p.add_argument("--db", default=None, help="SQLite file holding all state (default: a temp file, deleted on exit)")
    p.add_argument("--seed", type=int, default=1, help="seed for the initial mesh and the simulation (default 1)")
    p.add_argument("--rate", type=float, default=2.0,
                   help="simulated actions per second, mostly one event each; 0 = none (default 2)")
    p.add_argument("--demo-key", default=DEFAULT_KEY, help=f"API key installed in a new database (default {DEFAULT_KEY})")
    p.add_argument("--reset-key", action="store_true",
                   help="make --demo-key the only valid key, even if the database has rotated it")
    p.add_argument("--test-controls", action="store_true", help="enable /_dev/* (loopback only)")
    p.add_argument("--seed-scale", metavar="TASKS,DAEMONS", default=None,
                   help="a new database also gets bulk-made tasks and daemons up to these totals (e.g. 10000,500)")
    p.add_argument("--clock-skew", metavar="S", type=float, default=0.0,
                   help="stamp events' ts S seconds off the real clock (negative: behind; default 0)")
    p.add_argument("--clock-offset", metavar="S", type=float, default=0.0,
                   help="the server's whole clock is S seconds off the real one: every timestamp it writes or"
                        " serves and every Date header (negative: behind; default 0)")
    # A real mesh streams an agent's tokens and starts tasks nobody has listed yet, so that is
    # what every client and test meets unless it opts out.
    p.add_argument("--output-pieces", metavar="MIN,MAX", default="1,40",
                   help="cut every task.output text into events of MIN..MAX characters, anywhere"
                        " (default 1,40; 0: one event per text)")
    p.add_argument("--live-tasks", action=argparse.BooleanOptionalAction, default=True,
                   help="with --rate > 0, now and then start a task that runs and streams at once"
                        " (default on; --no-live-tasks: only tasks a list can see first)")
    p.add_argument("--quiet", action="store_true", help="log warnings only (no per-request lines)")
    return p.parse_args(argv)


def build_app(args: argparse.Namespace, store: Store) -> web.Application:
    faults = FaultState()
    hub = Hub(store, faults)
    mesh = Mesh(store, hub, args.seed)
    app = web.Application(middlewares=[middleware.access_log, middleware.json_errors, middleware.gates],
                          client_max_size=1 << 20)
    app["config"] = args
    app["store"] = store
    app["hub"] = hub
    app["mesh"] = mesh
    app["keys"] = Keys(store)
    app["sim"] = Simulation(mesh, args.seed, args.rate, args.live_tasks)
    app["faults"] = faults
    app["requests"] = middleware.RequestLog()
    app["clock"] = time.monotonic
    app["started"] = time.monotonic()
    app.on_response_prepare.append(stamp_date)
    api.add_routes(app, hub.serve)
    if args.test_controls:
        controls.add_routes(app)
    return app


async def stamp_date(_request: web.Request, response: web.StreamResponse) -> None:
    """Every response (REST, health, /_dev, the WebSocket upgrade) carries the server's clock,
    --clock-offset included; aiohttp keeps a Date header that is already set."""
    response.headers["Date"] = util.http_date(util.now())


async def run(args: argparse.Namespace) -> int:
    db_path = args.db
    temporary = db_path is None
    if temporary:
        fd, db_path = tempfile.mkstemp(prefix="makima-devserver-", suffix=".db")
        os.close(fd)
        os.unlink(db_path)
    else:
        os.makedirs(os.path.dirname(os.path.abspath(db_path)), exist_ok=True)
    store = Store(db_path)
    store.clock_skew = args.clock_skew
    util.set_clock_offset(args.clock_offset)
    app = build_app(args, store)
    mesh: Mesh = app["mesh"]
    seed = args.seed if store.is_fresh() else int(store.meta("seed", str(args.seed)))
    cut = pieces.parse(args.output_pieces)
    if cut is not None:
        # Seeded history is cut too, as it would have streamed.
        store.pieces = pieces.Pieces(*cut, seed)
    if store.is_fresh():
        seeddata.seed(mesh, args.seed)
        log.info("seeded a new mesh (seed %d) in %s", args.seed, db_path)
        if args.seed_scale:
            added = scale.seed_scale(mesh, args.seed, *scale.parse(args.seed_scale))
            log.info("scale mesh: added %(tasks)d tasks, %(daemons)d daemons, %(contracts)d contracts", added)
    else:
        stored_seed = int(store.meta("seed", str(args.seed)))
        if stored_seed != args.seed:
            log.warning("database was seeded with --seed %d; continuing with that seed", stored_seed)
            mesh.seed = stored_seed
            app["sim"].seed = stored_seed
        log.info("continuing %s: next event id %d, %d tasks", db_path, store.next_event_id, len(store.last_seq))
    app["keys"].install_demo_key(args.demo_key, args.reset_key)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0)
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.port, reuse_address=True)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        store.close(checkpoint=not temporary)
        if temporary:
            remove_db(db_path)
        if e.errno == errno.EADDRINUSE:
            print(f"devserver: port {args.port} on {args.host} is already in use", file=sys.stderr, flush=True)
        else:
            print(f"devserver: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr, flush=True)
        return 2
    port = runner.addresses[0][1]  # the real port when --port 0
    host = f"[{args.host}]" if ":" in args.host else args.host
    log.info("%s %s on http://%s:%d, db %s, rate %g, key %s%s", SERVER_NAME, VERSION, host, port, db_path,
             args.rate, mask_key(args.demo_key), ", test controls on" if args.test_controls else "")
    print(f"READY http://{host}:{port}", flush=True)

    app["sim"].start()
    await stop.wait()
    log.info("shutting down")
    await app["sim"].stop()
    await app["hub"].close_all()
    await runner.cleanup()
    store.close(checkpoint=not temporary)
    if temporary:
        remove_db(db_path)
    return 0


def remove_db(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(path + suffix)
        except FileNotFoundError:
            pass


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, stream=sys.stderr,
                        format="%(asctime)s devserver %(message)s")
    if args.test_controls and not is_loopback_host(args.host):
        print(f"devserver: refusing --test-controls on non-loopback host {args.host}", file=sys.stderr)
        return 2
    if args.seed_scale:
        try:
            scale.parse(args.seed_scale)
        except ValueError as e:
            print(f"devserver: {e}", file=sys.stderr)
            return 2
    if args.rate < 0:
        print("devserver: --rate must be >= 0", file=sys.stderr)
        return 2
    try:
        pieces.parse(args.output_pieces)
    except ValueError as e:
        print(f"devserver: {e}", file=sys.stderr)
        return 2
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
