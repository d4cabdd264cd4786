"""Fixtures: every test gets servers of its own (fresh database, nothing shared) and async
tests run in an event loop of their own, with no plugin."""
from __future__ import annotations

import asyncio
import inspect

import pytest

pytest.register_assert_rewrite("harness")

import harness  # noqa: E402

# A bound on a whole test: every wait inside has its own, this catches what they miss.
TEST_TIMEOUT_S = 180


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}

    async def run():
        try:
            await asyncio.wait_for(pyfuncitem.obj(**args), TEST_TIMEOUT_S)
        finally:
            await harness.close_sessions()

    asyncio.run(run())
    return True


@pytest.fixture
def launch(tmp_path):
    """Starts servers for this test: `launch(*flags, name=, db=, cli=, defaults=True)` → a
    started `harness.Server` (`--rate 0 --test-controls` first unless defaults=False; `start=False`
    only spawns it). As the test ends each is stopped; each must exit 0 on SIGTERM (or have ended
    by itself) and no log may hold an API key the test used."""
    servers: list[harness.Server] = []
    names: set[str] = set()

    def _launch(*flags: str, name: str | None = None, db: str | None = None, cli: bool = False,
              defaults: bool = True, start: bool = True, **kwargs) -> harness.Server:
        name = name or f"s{len(servers) + 1}"
        assert name not in names, f"server name {name} used twice"
        names.add(name)
        all_flags = (*harness.DEFAULT_FLAGS, *flags) if defaults else flags
        srv = harness.Server(str(tmp_path), name, all_flags, db=db, cli=cli, **kwargs)
        servers.append(srv)
        return srv.start() if start else srv.spawn()

    yield _launch

    problems = []
    for srv in servers:
        try:
            running = srv.returncode() is None
            code = srv.stop()
            if running and code != 0:
                problems.append(f"{srv.name} exited {code} on SIGTERM:\n{srv.log_tail()}")
        except Exception as e:  # noqa: BLE001 (every server is stopped, whatever happened to one)
            srv.kill()
            problems.append(f"{srv.name} did not stop: {e!r}")
    for srv in servers:
        log = srv.log()
        for key in {harness.KEY, *harness.ISSUED_KEYS}:
            if key.encode() in log:
                problems.append(f"the log of {srv.name} holds the API key mk_…{key[-4:]}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
def server(launch) -> harness.Server:
    """A fresh server: seed 7, no simulation, test controls on."""
    return launch()


@pytest.fixture
def api(server) -> harness.Api:
    return harness.Api(server)
