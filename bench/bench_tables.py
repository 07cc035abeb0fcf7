"""Tables as they play: N tables of four phones on a real gunicorn, each phone saving its own player
every 2-4 s through the real protocol (the autosave's `changes`, CSRF on, each phone its own cookies),
sometimes the same field as another phone of its table (the shared artifact card).

Run: `.venv/bin/python -m bench.bench_tables` (options: --tables 10 25 50 100 150 200 --seconds 20
--budget 300 --database sqlite|postgresql --rounds 1; with `--rounds 3` each number of tables is
played three times, new games each, and judged on the median of their p95s: one 20 s step moves with
the machine's speed; `--warmup 8`: the seconds the tables play before a step's saves are counted,
so that a step measures the room as it plays, not every phone reconnecting at once). Bounded: each
step runs a fixed time, the ladder stops once the save p95 passes 300 ms or the budget is spent; the
script starts and stops its own gunicorn (the repository's gunicorn.conf.py, bench/floor_app.py) and
talks to 127.0.0.1 only.

Reported per step: saves, save p50/p95/p99 as the phones saw them (wall time, loopback), the trivial
route's p50 in the same step and the ratio, conflicts (the same field changed on two phones: resolved
as "Appliquer mes saisies" does), false conflicts (a conflict on a field only its own phone writes:
must be 0) and lost saves (a value acknowledged last that the stored game does not hold: must be 0),
the CPU the phones' client and the server spent (and each server process's share of a core), a
save's time in its working slot split into its CPU, its waits for a core and the rest, then the
largest N whose save p95 stays under 300 ms.
"""

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402 - after gevent's patching, so sockets and sleeps cooperate
import contextlib  # noqa: E402
import html as html_text  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402

from bench.common import held_now  # noqa: E402

NAMES = ["Ana", "Ben", "Cléo", "Dan"]
OWN = ("track", "progress", "artifact_points", "machine_progress", "two_tokens", "resources-gears",
       "resources-books", "artifacts-0", "artifacts-1")
SHARED = "card-1-points"  # the table's shared artifact card: any phone may type it
SAME_FIELD = 0.08  # how often a save also types the shared field
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
INPUT = re.compile(r'<input[^>]*name="(version|base_values|once)"[^>]*value=(?:"([^"]*)"|\'([^\']*)\')')
LIMIT_MS = 300


class Phone:
    """One phone: its own cookies and keep-alive connection, its page's version and base values.

    HTTP/1.1 written and read here on a plain socket: the phones' client shares the server's two
    cores, and `http.client` (its headers parsed by the `email` package) cost 1.05 ms of CPU a save at
    this machine's slower speed, a fifth of the server's 5.3 ms (docs/benchmarks.md)."""

    def __init__(self, host: str, port: int):
        self.address = (host, port)
        self.host = f"{host}:{port}".encode()
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.cookies: dict[str, str] = {}
        self.base: dict[str, str] = {}
        self.version = "0"
        self.csrf = ""
        self.location = ""

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, bytes]:
        lines = [f"{method} {path} HTTP/1.1".encode(), b"Host: " + self.host, b"Accept: application/json"]
        if self.cookies:
            lines.append("Cookie: {}".format("; ".join(f"{k}={v}" for k, v in self.cookies.items())).encode())
        body = b""
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            lines += [b"Content-Type: application/x-www-form-urlencoded", b"Content-Length: %d" % len(body)]
        message = b"\r\n".join(lines) + b"\r\n\r\n" + body
        for attempt in range(2):
            try:
                if self.sock is None:
                    self.sock = socket.create_connection(self.address, timeout=60)
                self.sock.sendall(message)
                status, headers, data = self._answer()
                break
            except OSError:  # a kept-alive connection the server closed meanwhile: once more on a new one
                self.close()
                if attempt:
                    raise
        self.location = ""
        for name, value in headers:
            if name == "location":
                self.location = value
            elif name == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
            elif name == "connection" and value.lower() == "close":
                self.close()
        return status, data

    def _answer(self) -> tuple[int, list[tuple[str, str]], bytes]:
        while (end := self.buffer.find(b"\r\n\r\n")) < 0:
            self._more()
        head, self.buffer = self.buffer[:end].decode("latin-1"), self.buffer[end + 4:]
        first, *fields = head.split("\r\n")
        status = int(first.split(" ", 2)[1])
        headers = [(name.strip().lower(), value.strip())
                   for name, _, value in (field.partition(":") for field in fields)]
        length = dict(headers).get("content-length")
        if length is None:  # the app's answers all carry their length (none is streamed or chunked)
            raise ValueError(f"an answer without Content-Length: {first}")
        length = int(length)
        while len(self.buffer) < length:
            self._more()
        data, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, data

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionResetError("the server closed the connection")
        self.buffer += chunk

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""

    def page(self, path: str) -> str:
        status, data = self.request("GET", path)
        assert status == 200, (path, status)
        html = data.decode()
        self.csrf = CSRF.search(html).group(1)
        return html

    def open(self, token: str) -> None:
        html = self.page(f"/g/{token}/")
        found = {k: html_text.unescape(double or single) for k, double, single in INPUT.findall(html)}
        self.version = found["version"]
        self.base = json.loads(found["base_values"])


def new_game(phone: Phone) -> str:
    """A new 4-player Revive game from the new-game page, as a phone starts it: its edit token."""
    html = phone.page("/nouvelle?game=revive&variant=base")
    once = re.search(r'name="once"[^>]*value="([^"]+)"', html).group(1)
    form = {"csrf_token": phone.csrf, "once": once, "game": "revive", "variant": "base"}
    form |= {f"players-{i}-name": n for i, n in enumerate(NAMES)}
    status, _ = phone.request("POST", "/nouvelle", form)
    assert status == 302, status
    return re.search(r"/g/([\w-]+)/", phone.location).group(1)


class Step:
    """What one step of the ladder measured."""

    def __init__(self):
        self.saves: list[float] = []
        self.warmup: list[float] = []  # the saves of the warm-up, before the step's own
        self.log_offset = 0  # the server's access log when the step's own saves began
        self.floor: list[float] = []
        self.conflicts = self.false_conflicts = self.errors = 0
        self.statuses: dict[int, int] = {}  # the errors' statuses
        self.samples: list = []
        # (token, field) -> (stored version, value) of the last acknowledged save writing it
        self.acked: dict[tuple[str, str], tuple[int, str]] = {}


def play(phone: Phone, token: str, seat: int, step: Step, until: float, rng: random.Random,
         counted: float = 0.0) -> None:
    """A phone at the table: every 2-4 s its own player's fields change, and it saves them; only the
    saves sent from `counted` on are the step's (those before are the warm-up's)."""
    mine_only = sorted(f"players-{seat}-{key}" for key in OWN)
    # the first save at any moment of one period: a room's phones are not in step (a first wait of 2-4 s
    # for all would send 1.5 times the steady rate in the step's first seconds)
    wait = rng.uniform(0, 3)
    while True:
        gevent.sleep(wait)
        wait = rng.uniform(2, 4)
        if time.monotonic() >= until:
            return
        names = rng.sample(mine_only, rng.randint(1, 2))
        changes = {n: [phone.base.get(n, ""), str(rng.randint(1, 4))] for n in names}
        if rng.random() < SAME_FIELD:
            changes[SHARED] = [phone.base.get(SHARED, ""), str(rng.randint(1, 9))]
        changes = {n: pair for n, pair in changes.items() if pair[0] != pair[1]}
        for _attempt in range(5):
            form = {"csrf_token": phone.csrf, "version": phone.version, "changes": json.dumps(changes),
                    "new_rows": "[]", "delta": "1"}  # as the page asks: only what changed, when it can
            sent, start = time.monotonic(), time.perf_counter()
            status, data = phone.request("POST", f"/g/{token}/save", form)
            (step.saves if sent >= counted else step.warmup).append((time.perf_counter() - start) * 1000)
            answer = json.loads(data) if data[:1] == b"{" else {}
            if status == 200:
                version = int(answer["version"])
                for n, (_, value) in changes.items():
                    was = step.acked.get((token, n))
                    if was is None or was[0] <= version:
                        step.acked[(token, n)] = (version, value)
                phone.version, phone.base = str(version), held_now(phone.base, answer)
                break
            if status == 409:  # "Appliquer mes saisies": their values as the base, mine sent again
                step.conflicts += 1
                step.false_conflicts += sum(1 for n in answer["theirs"] if n != SHARED)
                phone.version, stored = str(answer["version"]), answer["stored"]
                changes = {n: [stored.get(n, ""), mine] for n, (_, mine) in changes.items()}
                continue
            step.errors += 1
            step.statuses[status] = step.statuses.get(status, 0) + 1
            if len(step.samples) < 3:
                step.samples.append((status, changes, data[:300]))
            break


def floor(phone: Phone, step: Step, until: float) -> None:
    while time.monotonic() < until:
        start = time.perf_counter()
        status, _ = phone.request("GET", "/_floor")
        if status == 200:
            step.floor.append((time.perf_counter() - start) * 1000)
        gevent.sleep(0.25)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def processes_cpu(pids) -> dict[int, float]:
    """The CPU time (s) each of the server's processes (gunicorn's master and workers) spent so far."""
    from bench import load

    spent = {}
    for pid in [pid for master in pids() for pid in (master, *load.workers_of(master))]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        spent[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return spent


def spent_since(before: dict[int, float], after: dict[int, float]) -> float | None:
    """The server's CPU time between two readings; None when a worker left meanwhile (recycled: what
    it spent since the first reading is not known)."""
    if set(before) - set(after):
        return None
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def run_step(host: str, port: int, tables: int, seconds: float, seed: int,
             server_pids=list, warmup: float = 0.0, log: Path | None = None) -> tuple[Step, int]:
    """Set the tables up, let them play `warmup` seconds (not counted), then `seconds` (the step).

    The warm-up: setting 300 tables up takes longer than the server keeps an idle connection
    (`keepalive`), so the first save of every phone would open a new one, all of them in the step's
    first 3 s; that storm is the warm-up's, and the step measures the room as it plays."""
    rng = random.Random(seed)
    step = Step()
    games = []
    for _ in range(tables):  # each table's first phone starts the game; the others open its link
        phones = [Phone(host, port) for _ in range(4)]
        token = new_game(phones[0])
        for phone in phones:
            phone.open(token)
        games.append((token, phones))
    counted = time.monotonic() + warmup
    until = counted + seconds
    jobs = [gevent.spawn(play, phone, token, seat, step, until, random.Random(rng.random()), counted)
            for token, phones in games for seat, phone in enumerate(phones)]
    gevent.sleep(max(0.0, counted - time.monotonic()))
    step.log_offset = log.stat().st_size if log is not None else 0
    step.cpu_at = (time.process_time(), processes_cpu(server_pids))
    jobs.append(gevent.spawn(floor, Phone(host, port), step, until))
    gevent.joinall(jobs, timeout=seconds + 120)
    step.client_cpu = time.process_time() - step.cpu_at[0]
    after = processes_cpu(server_pids)
    step.server_cpu = spent_since(step.cpu_at[1], after)
    step.by_process = sorted((after[pid] - step.cpu_at[1].get(pid, 0.0) for pid in after), reverse=True)
    step.wall = time.monotonic() - (until - seconds)
    lost = 0
    for token, phones in games:  # read back: each field holds the value acknowledged last
        phones[0].open(token)
        for (game, name), (_, value) in step.acked.items():
            if game == token and phones[0].base.get(name, "") != value:
                lost += 1
    return step, lost


@contextlib.contextmanager
def server(database: str):
    from bench import load, servers

    with tempfile.TemporaryDirectory(prefix="companion-tables-") as tmp:
        if database == "postgresql":
            with servers.postgresql(load.free_port()) as url, load.gunicorn(url, Path(tmp)) as (host, log):
                yield host, log
        else:
            url = f"sqlite:///{Path(tmp) / 'tables.sqlite3'}"
            with load.gunicorn(url, Path(tmp)) as (host, log):
                yield host, log


def slot_split(log: Path, offset: int) -> str:
    """A save's time in its working slot (mean, ms), split: its thread's CPU, its waits for a core
    (runnable, not running: bench/floor_app.py) and the rest (the write turn, the disk, the
    interpreter lock). The slot is one per process: its mean time a save bounds a process's saves a
    second."""
    from bench import load

    queued: dict = {}
    _served, working, cpu = load.server_times(log, offset, queued)
    saves = working["autosave"]
    if not saves or not queued.get("autosave"):
        return "     a save's slot: (not measured)"
    wall, own, waits = (statistics.fmean(v) for v in (saves, cpu["autosave"], queued["autosave"]))
    return (f"     a save's slot (mean): {wall:.2f} ms = CPU {own:.2f} + waiting for a core {waits:.2f} "
            f"+ the rest {wall - own - waits:.2f}")


def server_cpu(log: Path, offset: int) -> tuple[float, float, float]:
    """The CPU time p50 (ms, the working thread's) of the saves and of the trivial route logged
    after `offset` (what the phones' client and the other jobs of a shared machine inflate least),
    and the saves' server time p95 (from the request read to the answer written: a p95 the phones
    see far above it was spent outside the server, in the client or the sockets)."""
    from bench import load

    served, _working, cpu = load.server_times(log, offset)
    return (percentile(cpu["autosave"], 0.5), percentile(cpu["trivial route"], 0.5),
            percentile(served["autosave"], 0.95))


def collection_cost() -> str:
    """What gc.freeze() (gunicorn.conf.py, after each worker's warm-up) saves: a full collection in a
    warmed app, before and after freezing what is loaded (best of 5 each)."""
    import gc
    import os

    from companion import create_app

    with tempfile.TemporaryDirectory(prefix="companion-gc-") as tmp:
        os.environ["COMPANION_INSTANCE"] = tmp
        application = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/gc.sqlite3",
                                  "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})
        with application.app_context():
            from companion.extensions import db

            db.create_all()
        client = application.test_client()
        form = {"game": "revive", "variant": "base"} | {f"players-{i}-name": n for i, n in enumerate(NAMES)}
        token = re.search(r"/g/([\w-]+)/", client.post("/nouvelle", data=form).headers["Location"]).group(1)
        for k in range(20):  # a few pages and saves: forms, caches, templates loaded
            client.get(f"/g/{token}/")
            client.post(f"/g/{token}/save", data={"version": str(k + 1), "changes": json.dumps(
                {"players-0-track": ["" if k == 0 else str(k), str(k + 1)]})})

        def full() -> float:
            best = float("inf")
            for _ in range(5):
                start = time.perf_counter()
                gc.collect()
                best = min(best, (time.perf_counter() - start) * 1000)
            return best

        before, tracked = full(), len(gc.get_objects())
        gc.freeze()
        after, left = full(), gc.get_freeze_count()
        gc.unfreeze()
    return (f"a full garbage collection in a warmed worker: {before:.1f} ms ({tracked} objects tracked); "
            f"after gc.freeze(): {after:.2f} ms ({left} objects frozen)")


def one_step(args, host, log: Path, n: int, seed: int) -> tuple[float, int, int]:
    """One step of the ladder, printed: (the saves' p95 as the phones saw it, lost saves, false
    conflicts)."""
    where = urllib.parse.urlsplit(host)
    errors = log.parent / "error.log"  # bench/load.py's gunicorn writes it beside the access log
    error_offset = errors.stat().st_size if errors.exists() else 0
    step, lost = run_step(where.hostname, where.port, n, args.seconds, seed,
                          lambda: [host.proc.pid] if getattr(host, "proc", None) else [], args.warmup, log)
    offset = step.log_offset
    p50, p95, p99 = (percentile(step.saves, q) for q in (0.5, 0.95, 0.99))
    fl = percentile(step.floor, 0.5)
    # this step's saves (not its setup's pages nor the warm-up's saves)
    cpu, cpu_floor, served95 = server_cpu(log, offset)
    print(f"{n:>4} {len(step.saves):>6} {p50:>6.1f}ms {p95:>6.1f}ms {p99:>6.1f}ms {fl:>7.2f}ms "
          f"{p50 / fl:>8.1f}x {step.conflicts:>9} {step.false_conflicts:>5} {lost:>4} "
          f"{step.errors:>6} {cpu:>6.2f}ms {cpu_floor:>4.2f}ms {cpu / cpu_floor:>8.1f}x "
          f"{served95:>8.1f}ms {os.getloadavg()[0]:>8.2f}",
          flush=True)
    # who spent the 2 cores: the phones' client (this process) beside the server's processes
    server = ("not known (a worker was recycled during the step)" if step.server_cpu is None else
              f"{step.server_cpu / step.wall * 100:.0f} % "
              f"({step.server_cpu / max(1, len(step.saves)) * 1000:.2f} ms a save; by process "
              + ", ".join(f"{cpu / step.wall * 100:.0f} %" for cpu in step.by_process) + ")")
    print(f"     CPU over the step: client {step.client_cpu / step.wall * 100:.0f} % of a core "
          f"({step.client_cpu / max(1, len(step.saves)) * 1000:.2f} ms a save), server {server}", flush=True)
    if step.warmup:
        print(f"     the warm-up's {len(step.warmup)} saves (not counted): p50 "
              f"{percentile(step.warmup, 0.5):.1f} ms, p95 {percentile(step.warmup, 0.95):.1f} ms",
              flush=True)
    if errors.exists():
        with errors.open("rb") as fh:  # what the server said during the step only
            fh.seek(error_offset)
            said = fh.read().decode("utf-8", errors="replace")
        booted = said.count("Booting worker")
        if booted:
            why = ("its resident size" if "WORKER_MAX_RSS_MB" in said else
                   "max_requests" if "Autorestarting worker" in said else "a worker that died")
            print(f"     workers started during the step: {booted} ({why})", flush=True)
    print(slot_split(log, offset), flush=True)
    if step.statuses:
        print(f"     errors by status: {step.statuses}")
    return p95, lost, step.false_conflicts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 25, 50, 100, 150, 200])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=8,
                        help="seconds the tables play before the step's own saves are counted")
    parser.add_argument("--budget", type=float, default=300, help="seconds for the whole ladder")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--rounds", type=int, default=1,
                        help="steps a number of tables (new games each): judged on their p95s' median")
    args = parser.parse_args(argv)
    print(collection_cost(), flush=True)
    began = time.monotonic()
    best = 0
    failed = False
    with server(args.database) as (host, log):
        print(f"{args.database}: N tables x 4 phones, a save every 2-4 s per phone, "
              f"{args.seconds:g} s a step after {args.warmup:g} s of warm-up")
        print(f"{'N':>4} {'saves':>6} {'p50':>7} {'p95':>7} {'p99':>7} {'floor p50':>9} {'p50/floor':>9} "
              f"{'conflicts':>9} {'false':>5} {'lost':>4} {'errors':>6} {'CPU save':>8} {'floor':>6} "
              f"{'CPU ratio':>9} {'server p95':>10} {'load avg':>8}")
        for n in args.tables:
            p95s = []
            for round_ in range(args.rounds):
                if time.monotonic() - began > args.budget:
                    print(f"(budget of {args.budget:g} s spent: stopped before N={n}, round {round_ + 1})")
                    break
                p95, lost, false_conflicts = one_step(args, host, log, n, args.seed + n + 1000 * round_)
                p95s.append(p95)
                failed = failed or lost > 0 or false_conflicts > 0
            if not p95s:
                break
            judged = statistics.median(p95s)
            if args.rounds > 1:
                print(f"     {n} tables: save p95 {', '.join(f'{v:.1f}' for v in p95s)} ms; "
                      f"median of {len(p95s)} rounds {judged:.1f} ms", flush=True)
            if judged < LIMIT_MS and len(p95s) == args.rounds:
                best = n
            else:
                break
    print(f"largest N at save p95 < {LIMIT_MS} ms: {best or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
