#!/usr/bin/env python3
"""`make bench`: routereg side by side with nginx on loopback, the write path, memory, and the matcher.

Runs everything bounded in time and stops by itself; writes bench/results/latest.json and regenerates
BENCHMARKS.md. This machine may be shared and noisy: every ratio compares runs made minutes apart in the
same invocation, rounds alternate between the two servers, and the load average is recorded throughout.

    python3 bench/bench.py [--quick] [--skip-build] [--scratch-path .build] [--phases aasa,table,check,...]
    python3 bench/bench.py --phases threads --no-report      # 1×, 2×, 4× the cores, for --threads' default
"""

import argparse
import json
import os
import platform
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import report  # noqa: E402
import seed  # noqa: E402
from rpc import Client  # noqa: E402

RESULTS = os.path.join(HERE, "results")
# Which cores the servers and the load generator run on (`--no-pin`: both share every core, the method before
# issue 43). Pinned, wrk's own cost no longer bounds a server's requests per second: the server (nginx with one
# worker, routereg with its default threads, which follow its CPU affinity) has core 0, wrk core 1.
PIN = {"server": "0", "load": "1"}


def pinned(argv, role):
    """`argv` run on the cores of `role` ("server" or "load"), or as given when not pinning."""
    return ["taskset", "-c", PIN[role], *argv] if PIN else list(argv)
PHASES = ["aasa", "table", "check", "publish", "rss", "links", "apps", "matcher", "bounds", "manifest"]
# Not part of a default run: chooses `--threads`' default (bench/OPTIMIZATIONS.md).
EXTRA_PHASES = ["threads"]


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LoadSampler:
    """Samples the 1-minute load average every few seconds while the benchmark runs."""

    def __init__(self):
        self.samples = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            with open("/proc/loadavg") as f:
                self.samples.append(float(f.read().split()[0]))
            self._stop.wait(5)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join(timeout=6)

    def summary(self):
        if not self.samples:
            return {}
        return {"min": min(self.samples), "median": statistics.median(self.samples), "max": max(self.samples)}


class Process:
    """A child process with its output in a log file; stopped with SIGTERM, then SIGKILL."""

    def __init__(self, name, argv, env=None, log_path=None, wait_for=None, timeout=180):
        self.name = name
        self.log_path = log_path or os.path.join(RESULTS, f"{name}.log")
        self.log_file = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            argv, env=env, stdout=subprocess.PIPE if wait_for else self.log_file, stderr=self.log_file,
            stdin=subprocess.DEVNULL, start_new_session=True)
        self.first_line = None
        if wait_for:
            deadline = time.time() + timeout
            ready = threading.Event()

            def reader():
                for raw in self.proc.stdout:
                    line = raw.decode(errors="replace").rstrip()
                    self.log_file.write(line + "\n")
                    self.log_file.flush()
                    if wait_for in line and not ready.is_set():
                        self.first_line = line
                        ready.set()

            threading.Thread(target=reader, daemon=True).start()
            while not ready.wait(0.2):
                if self.proc.poll() is not None or time.time() > deadline:
                    self.stop()
                    raise RuntimeError(f"{name} did not start; see {self.log_path}")

    @property
    def pid(self):
        return self.proc.pid

    def stop(self, timeout=90):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log_file.close()


class Registry:
    """`routereg serve` on its own embedded PostgreSQL, in a fresh data directory."""

    def __init__(self, binary, name, threads=None, quiet=False, extra=()):
        """As shipped: its defaults, the request log to a file (`access.log` in its data directory), unless
        `quiet` (`--quiet`, no log); `threads` overrides the default thread count; `extra`: more serve flags
        (for A/B runs of one setting)."""
        self.name = name
        self.port = free_port()
        self.token = "bench-" + os.urandom(12).hex()
        self.data_dir = tempfile.mkdtemp(prefix=f"{name}-", dir=RESULTS)
        self.access_log = None if quiet else os.path.join(self.data_dir, "access.log")
        env = dict(os.environ, ROUTEREG_ADMIN_TOKEN=self.token)
        for variable in ("DATABASE_URL", "PGHOST", "PGDATABASE"):
            env.pop(variable, None)
        argv = [binary, "serve", "--listen", f"127.0.0.1:{self.port}", "--data-dir", self.data_dir, "--no-delivery-watch"]
        argv += ["--quiet"] if quiet else ["--access-log", self.access_log]
        if threads:
            argv += ["--threads", str(threads)]
        argv += list(extra)
        self.argv = pinned(argv, "server")
        self.process = Process(name, self.argv, env=env, wait_for="listening on")
        self.client = Client(self.port, self.token)

    def rotate_log(self):
        """Empties the request log, as logrotate's copytruncate would (the server appends, so it goes on at the
        new end). The phases do it before each document: nginx as shipped starts each with a fresh access log,
        and a log grown over the whole run (gigabytes of lines by the last phases, with the page cache writing
        them back meanwhile) measured the file system rather than the server."""
        if self.access_log and os.path.exists(self.access_log):
            os.truncate(self.access_log, 0)

    def rss(self):
        fields = {}
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    fields[key] = int(value.split()[0]) / 1024
        return fields

    def metrics(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=10) as response:
            text = response.read().decode()
        values = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                try:
                    values[name] = float(value)
                except ValueError:
                    pass
        return values

    def restart(self):
        """Stops the server (gracefully) and starts it again on the same data; seconds to listening."""
        self.client.close()
        self.process.stop()
        env = dict(os.environ, ROUTEREG_ADMIN_TOKEN=self.token)
        for variable in ("DATABASE_URL", "PGHOST", "PGDATABASE"):
            env.pop(variable, None)
        started = time.time()
        self.process = Process(self.name, self.argv, env=env, wait_for="listening on")
        seconds = time.time() - started
        self.client = Client(self.port, self.token)
        return seconds

    def stop(self):
        self.client.close()
        self.process.stop()
        shutil.rmtree(self.data_dir, ignore_errors=True)


# What the tuned nginx adds to the settings Debian ships, by placeholder of nginx.conf.template.
NGINX_TUNING = {
    "EVENTS_TUNING": "multi_accept on;",
    "HTTP_TUNING": "keepalive_requests 1000000; open_file_cache max=1000 inactive=60s; "
                   "open_file_cache_valid 60s; open_file_cache_min_uses 1; open_file_cache_errors on;",
    "LISTEN_TUNING": " reuseport",
}


class Nginx:
    """nginx serving files from a temporary root with the configuration in bench/nginx.conf.template."""

    def __init__(self, files, access_log=True, tuned=False, extra=""):
        """`access_log`: nginx's default combined access log, to a file; else `access_log off`. `tuned`: with
        NGINX_TUNING added to the settings Debian ships (see nginx.conf.template)."""
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="nginx-", dir=RESULTS)
        os.chmod(self.dir, 0o755)
        for sub in ("www", "tmp"):
            os.makedirs(os.path.join(self.dir, sub))
        for path, data in files.items():
            target = os.path.join(self.dir, "www", path.lstrip("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)
        with open(os.path.join(HERE, "nginx.conf.template")) as f:
            template = f.read()
        user = ""
        if os.geteuid() == 0:
            import grp
            import pwd
            user = f"user {pwd.getpwuid(0).pw_name} {grp.getgrgid(0).gr_name};"
        config = template.replace("{{DIR}}", self.dir).replace("{{PORT}}", str(self.port))
        config = config.replace("{{USER_DIRECTIVE}}", user).replace("{{EXTRA}}", extra)
        # `auto` counts the machine's cores, not the ones nginx may run on: pinned to one, one worker.
        config = config.replace("{{WORKER_PROCESSES}}", "1" if PIN else "auto")
        for name, value in NGINX_TUNING.items():
            config = config.replace("{{" + name + "}}", value if tuned else "")
        self.access_log = os.path.join(self.dir, "access.log") if access_log else None
        config = config.replace("{{ACCESS_LOG}}", f"access_log {self.access_log} combined;" if access_log
                                else "access_log off;")
        self.config = os.path.join(self.dir, "nginx.conf")
        with open(self.config, "w") as f:
            f.write(config)
        self.process = Process("nginx", pinned(["nginx", "-p", self.dir, "-e", os.path.join(self.dir, "error.log"),
                                                "-c", self.config], "server"))
        deadline = time.time() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if time.time() > deadline or self.process.proc.poll() is not None:
                    raise RuntimeError(f"nginx did not start; see {self.dir}/error.log")
                time.sleep(0.1)

    def check_serves(self, url_path, data):
        """Raises unless nginx answers `url_path` with exactly `data`."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{url_path}", timeout=10) as response:
            if response.read() != data:
                raise RuntimeError(f"nginx serves different bytes at {url_path}")

    def stop(self):
        self.process.stop(timeout=20)
        shutil.rmtree(self.dir, ignore_errors=True)


def wrk(url, duration, connections=64, threads=None, env=None):
    """One wrk run; returns its BENCHJSON summary (rps, p50/p90/p99 ms, errors). One thread on its own core
    when pinned, else two."""
    threads = threads or (1 if PIN else 2)
    argv = ["taskset", "-c", PIN["load"]] if PIN else []
    argv += ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "5s",
            "-s", os.path.join(HERE, "wrk", "load.lua"), url]
    run_env = dict(os.environ)
    run_env.update(env or {})
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(argv, env=run_env, capture_output=True, text=True, timeout=duration + 60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    for line in out.stdout.splitlines():
        if line.startswith("BENCHJSON "):
            result = json.loads(line[len("BENCHJSON "):])
            if result["requests"]:
                # Unpinned, wrk shares the cores with the server: its own cost bounds every ratio.
                spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                result["wrk_us_per_request"] = spent / result["requests"] * 1e6
            return result
    raise RuntimeError(f"wrk gave no summary: {out.stdout}\n{out.stderr}")


def median_of(runs, key):
    return statistics.median(run[key] for run in runs)


def summarize(runs):
    summary = {
        "rps": median_of(runs, "rps"), "p50_ms": median_of(runs, "p50_ms"), "p99_ms": median_of(runs, "p99_ms"),
        "errors": sum(sum(run["errors"].values()) for run in runs), "rounds": runs,
    }
    for key in ("cpu_us_per_request", "cpu_user_us_per_request", "wrk_us_per_request"):
        if runs and all(key in run for run in runs):
            summary[key] = median_of(runs, key)
    return summary


def build(scratch):
    for product in ("routereg", "routereg-bench"):
        log(f"building {product} (release)")
        subprocess.run(["swift", "build", "-c", "release", "--scratch-path", scratch, "--product", product],
                       cwd=ROOT, check=True, timeout=3600)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--scratch-path", scratch, "--show-bin-path"],
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    return bin_dir


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        memory = int(f.readline().split()[1]) / 1024 / 1024
    versions = {}
    for tool, argv in (("wrk", ["wrk", "-v"]), ("nginx", ["nginx", "-v"]), ("swift", ["swift", "--version"])):
        try:
            out = subprocess.run(argv, capture_output=True, text=True, timeout=30)
            versions[tool] = (out.stdout + out.stderr).strip().splitlines()[0]
        except Exception:  # noqa: BLE001 - informational only
            versions[tool] = "unknown"
    return {"nproc": os.cpu_count(), "cpu": model, "memory_gb": round(memory, 1), "kernel": platform.release(),
            "tools": versions}


# ---------------------------------------------------------------------------------------------------------
# Phases


def seed_story(registry):
    """The Badoo-sized app: a handful of routes on one domain (an AASA of about two kilobytes)."""
    plan = seed.Plan("badoo", ["m.badoo.com"], route_count=40, live=5, seed=5)
    seed.seed(registry.client, plan)
    return plan


def eight_plan():
    """An app of 140 routes on one domain: an AASA of about eight kilobytes, and the canOpen table the GET
    benchmark serves."""
    return seed.Plan("eight", ["eight.bench.example"], route_count=140, live=5, seed=8)


def seed_eight(registry):
    plan = eight_plan()
    seed.seed(registry.client, plan)
    return plan


def aasa_documents(registry, hosts):
    documents = {}
    for host in hosts:
        status, headers, body = registry.client.get("/.well-known/apple-app-site-association", host)
        if status != 200:
            raise RuntimeError(f"AASA of {host}: HTTP {status}")
        documents[host] = {"bytes": body, "etag": headers.get("ETag")}
    return documents


def cpu_split(pid):
    """(user, system) CPU seconds so far of process `pid` (all its threads) and of its direct children (nginx's
    workers; routereg's embedded PostgreSQL, idle while documents are served). The split says where a server's
    time goes: its own code, or the kernel's socket work every server pays."""
    def of(process):
        try:
            with open(f"/proc/{process}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
        except OSError:
            return 0, 0, None
        return int(fields[11]), int(fields[12]), int(fields[1])
    user, system, _ = of(pid)
    for entry in os.listdir("/proc"):
        if entry.isdigit() and entry != str(pid):
            child_user, child_system, parent = of(entry)
            if parent == pid:
                user += child_user
                system += child_system
    tick = os.sysconf("SC_CLK_TCK")
    return user / tick, system / tick


def alternate(servers, rounds, duration, label, url_path, env=None, pids=None):
    """wrk on every server of `servers` ({name: port}) `rounds` times, the order reversed every other round so
    none always goes first after a pause; {name: [wrk result per round]}. With `pids` ({name: pid}) each
    result also has `cpu_us_per_request`: the server's CPU time per request, which other processes on the
    machine disturb far less than requests per second."""
    targets = {name: (port, url_path, env) for name, port in servers.items()}
    return alternate_targets(targets, rounds, duration, label, pids)


def alternate_targets(targets, rounds, duration, label, pids=None):
    """`alternate` with a path and a wrk environment per server: {name: (port, path, env)}."""
    runs = {name: [] for name in targets}
    names = list(targets)
    for r in range(rounds):
        for name in (names if r % 2 == 0 else list(reversed(names))):
            port, url_path, env = targets[name]
            before = cpu_split(pids[name]) if pids else None
            result = wrk(f"http://127.0.0.1:{port}{url_path}", duration, env=env)
            extra = ""
            if pids and result["requests"]:
                user, system = (after - start for after, start in zip(cpu_split(pids[name]), before))
                result["cpu_us_per_request"] = (user + system) / result["requests"] * 1e6
                result["cpu_user_us_per_request"] = user / result["requests"] * 1e6
                extra = (f", {result['cpu_us_per_request']:.1f} µs CPU per request "
                         f"({result['cpu_user_us_per_request']:.1f} user)")
            if "wrk_us_per_request" in result:
                extra += f" (wrk {result['wrk_us_per_request']:.1f} µs)"
            runs[name].append(result)
            log(f"{label} {name} round {r + 1}: {result['rps']:.0f} rps, p99 {result['p99_ms']:.2f} ms{extra}")
    return runs


def phase_aasa(registry, quiet, documents, rounds, duration):
    """Each document served by five servers, rounds alternating: routereg as shipped (request log to a file)
    against nginx as shipped (Debian's settings, combined access log to a file) and nginx tuned with the same
    log; routereg --quiet against nginx tuned with access_log off."""
    results = {}
    url_path = "/.well-known/apple-app-site-association"
    for host, document in documents.items():
        registry.rotate_log()
        nginxes = {"nginx": Nginx({url_path: document["bytes"]}),
                   "nginx_tuned": Nginx({url_path: document["bytes"]}, tuned=True),
                   "nginx_off": Nginx({url_path: document["bytes"]}, access_log=False, tuned=True)}
        try:
            for server in nginxes.values():
                server.check_serves(url_path, document["bytes"])
            _, _, quiet_bytes = quiet.client.get(url_path, host)
            if quiet_bytes != document["bytes"]:
                raise RuntimeError(f"the --quiet server serves other bytes for {host}")
            # Each pair a target compares runs back to back, whichever way a round goes: nginx as shipped and
            # routereg, routereg and --quiet (the log's cost), --quiet and nginx with access_log off.
            order = ("nginx_tuned", "nginx", "routereg", "quiet", "nginx_off")
            ports = {"routereg": registry.port, "quiet": quiet.port}
            pids = {"routereg": registry.process.pid, "quiet": quiet.process.pid}
            for name, server in nginxes.items():
                ports[name], pids[name] = server.port, server.process.pid
            runs = alternate({name: ports[name] for name in order}, rounds, duration,
                             f"AASA {host} ({len(document['bytes'])} B)", url_path, env={"BENCH_HOST": host},
                             pids=pids)
        finally:
            for server in nginxes.values():
                server.stop()
        r = {"bytes": len(document["bytes"])}
        r.update({name: summarize(value) for name, value in runs.items()})
        r["ratio"] = r["routereg"]["rps"] / r["nginx"]["rps"]
        r["tuned_ratio"] = r["routereg"]["rps"] / r["nginx_tuned"]["rps"]
        r["quiet_ratio"] = r["quiet"]["rps"] / r["nginx_off"]["rps"]
        r["log_cost"] = 1 - r["routereg"]["rps"] / r["quiet"]["rps"]
        results[host] = r
    return results


def phase_table(registry, plan, rounds, duration):
    """GET of a version's canOpen table from routereg (as shipped) against nginx, as shipped and tuned (both
    with their access log), serving the same bytes at the same path."""
    version = seed.versions(plan.live)[-1]
    path = f"/canopen/v1/{plan.app}/ios/{version}.json"
    # A fresh connection: the client's keep-alive one may have timed out during the AASA rounds.
    with urllib.request.urlopen(f"http://127.0.0.1:{registry.port}{path}", timeout=10) as response:
        headers, body = dict(response.getheaders()), response.read()
    registry.rotate_log()
    nginx, tuned = Nginx({path: body}), Nginx({path: body}, tuned=True)
    try:
        nginx.check_serves(path, body)
        tuned.check_serves(path, body)
        runs = alternate({"nginx": nginx.port, "routereg": registry.port, "nginx_tuned": tuned.port}, rounds,
                         duration, f"table GET ({len(body)} B)", path,
                         pids={"nginx": nginx.process.pid, "routereg": registry.process.pid,
                               "nginx_tuned": tuned.process.pid})
    finally:
        nginx.stop()
        tuned.stop()
    result = {"bytes": len(body), "path": path, "etag": headers.get("ETag"), "routes": plan.route_count}
    result.update({name: summarize(value) for name, value in runs.items()})
    result["ratio"] = result["routereg"]["rps"] / result["nginx"]["rps"]
    result["tuned_ratio"] = result["routereg"]["rps"] / result["nginx_tuned"]["rps"]
    return result


def phase_threads(binary, plan_factory, counts, rounds, duration):
    """The AASA GET (about 8 KB) and CanOpen.Check against routereg as shipped with each thread count in
    `counts`, all servers up at once and rounds alternating: what `--threads` should default to."""
    servers = {}
    try:
        for count in counts:
            registry = Registry(binary, f"threads-{count}", threads=count)
            plan = plan_factory()
            seed.seed(registry.client, plan)
            servers[count] = registry
        bodies_file = os.path.join(RESULTS, "threads-check-bodies.jsonl")
        with open(bodies_file, "w") as f:
            f.write("\n".join(seed.check_bodies(plan)) + "\n")
        ports = {f"{count} threads": registry.port for count, registry in servers.items()}
        pids = {f"{count} threads": registry.process.pid for count, registry in servers.items()}
        url_path = "/.well-known/apple-app-site-association"
        aasa = alternate(ports, rounds, duration, "threads AASA", url_path, env={"BENCH_HOST": plan.hosts[0]},
                         pids=pids)
        check = alternate(ports, rounds, duration, "threads Check", "/rpc", env={"BENCH_BODIES": bodies_file},
                          pids=pids)

        return {"aasa": {name: summarize(runs) for name, runs in aasa.items()},
                "check": {name: summarize(runs) for name, runs in check.items()}}
    finally:
        for registry in servers.values():
            registry.stop()


def phase_check(registry, plan, document, rounds, duration):
    """`CanOpen.Check` on routereg as shipped, rounds alternating with nginx as shipped and tuned (both with
    their access log) serving `document` (the 8 KB AASA: the baseline issue 15 measured Check against), then
    the `CanOpen.GetTable` 304 path."""
    bodies_file = os.path.join(RESULTS, "check-bodies.jsonl")
    bodies = seed.check_bodies(plan)
    with open(bodies_file, "w") as f:
        f.write("\n".join(bodies) + "\n")
    # Decisions are sane before they are fast.
    decisions = {}
    for body in bodies[:200]:
        params = json.loads(body)["params"]
        result = registry.client.call("CanOpen.Check", **params)
        key = result["decision"] + "/" + result.get("reason", "")
        decisions[key] = decisions.get(key, 0) + 1
    log(f"CanOpen.Check decision mix over 200 URLs: {decisions}")

    table = registry.client.call("CanOpen.GetTable", app=plan.app, platform="ios", version=seed.versions(plan.live)[-1])
    table_bytes = len(json.dumps(table))
    etag = table["etag"]
    gettable_file = os.path.join(RESULTS, "gettable-bodies.jsonl")
    lines = []
    for i, version in enumerate(seed.versions(plan.live)):
        current = registry.client.call("CanOpen.GetTable", app=plan.app, platform="ios", version=version)["etag"]
        params = {"app": plan.app, "platform": "ios", "version": version, "ifNoneMatch": current}
        lines.append(json.dumps({"jsonrpc": "2.0", "id": i, "method": "CanOpen.GetTable", "params": params}))
    with open(gettable_file, "w") as f:
        f.write("\n".join(lines) + "\n")
    answer = registry.client.call("CanOpen.GetTable", app=plan.app, platform="ios",
                                  version=seed.versions(plan.live)[-1], ifNoneMatch=etag)
    assert answer["notModified"] is True, answer

    url_path = "/.well-known/apple-app-site-association"
    registry.rotate_log()
    nginx, tuned = Nginx({url_path: document["bytes"]}), Nginx({url_path: document["bytes"]}, tuned=True)
    try:
        nginx.check_serves(url_path, document["bytes"])
        tuned.check_serves(url_path, document["bytes"])
        targets = {"nginx": (nginx.port, url_path, None),
                   "check": (registry.port, "/rpc", {"BENCH_BODIES": bodies_file}),
                   "nginx_tuned": (tuned.port, url_path, None)}
        runs = alternate_targets(targets, rounds, duration, "CanOpen.Check vs nginx GET",
                                 pids={"nginx": nginx.process.pid, "check": registry.process.pid,
                                       "nginx_tuned": tuned.process.pid})
    finally:
        nginx.stop()
        tuned.stop()
    table_runs = []
    for r in range(max(2, rounds - 2)):
        result = wrk(f"http://127.0.0.1:{registry.port}/rpc", duration, env={"BENCH_BODIES": gettable_file})
        table_runs.append(result)
        log(f"CanOpen.GetTable 304 round {r + 1}: {result['rps']:.0f} rps, p99 {result['p99_ms']:.2f} ms")
    check, baseline, tuned = (summarize(runs[name]) for name in ("check", "nginx", "nginx_tuned"))
    return {"check": check, "nginx": baseline, "nginx_tuned": tuned, "nginxBytes": len(document["bytes"]),
            "ratio": check["rps"] / baseline["rps"], "tuned_ratio": check["rps"] / tuned["rps"],
            "getTable304": summarize(table_runs),
            "decisionMix": decisions, "tableJSONBytes": table_bytes, "urls": len(bodies),
            "routes": plan.route_count, "live": plan.live}


def phase_publish(registry, plan, extra_live, cycles):
    """Publishes versions until `extra_live` are live, then times publish/retire cycles of the newest."""
    live = seed.versions(extra_live)
    grow = []
    for version in live[plan.live:]:
        _, seconds = registry.client.timed_call("Releases.Publish", app=plan.app, platform="ios", version=version)
        grow.append(seconds)
    newest = live[-1]
    publish, retire, rebuild = [], [], []
    for _ in range(cycles):
        _, seconds = registry.client.timed_call("Releases.Retire", app=plan.app, platform="ios", version=newest)
        retire.append(seconds)
        _, seconds = registry.client.timed_call("Releases.Publish", app=plan.app, platform="ios", version=newest)
        publish.append(seconds)
        build_seconds = registry.metrics().get("routereg_snapshot_build_seconds")
        if build_seconds is not None:
            rebuild.append(build_seconds)
    result = {
        "routes": plan.route_count, "live": extra_live, "cycles": cycles,
        "publish_ms": [s * 1000 for s in publish], "retire_ms": [s * 1000 for s in retire],
        "publish_median_ms": statistics.median(publish) * 1000, "retire_median_ms": statistics.median(retire) * 1000,
        "grow_median_ms": statistics.median(grow) * 1000 if grow else None,
    }
    if rebuild:
        result["snapshot_build_median_ms"] = statistics.median(rebuild) * 1000
    result["import"] = phase_import(registry, IMPORT_ROUTES)
    return result


IMPORT_ROUTES = 1000


def phase_import(registry, count, singles=50):
    """Adds `count` routes to a fresh app with a live version (so every route goes into its AASA) in one
    Routes.BatchCreate, and `singles` routes to another one Routes.Create at a time: the import path against
    the write-per-route path it replaces."""
    def fresh_app(name):
        registry.client.call("Apps.Create", app={"id": name, "ios": {"appIds": [f"ABCDE12345.com.bench.{name}"]}})
        registry.client.call("Domains.Create", domain={"host": f"{name}.bench.example", "apps": [name]})
        registry.client.call("Releases.Publish", app=name, platform="ios", version="1.0")

    def route(prefix, i):
        return {"id": f"{prefix}-{i}", "pattern": {"path": f"/{prefix}/{i}/*"}, "platforms": {"ios": {"since": "1.0"}}}

    fresh_app("import-batch")
    _, batch_seconds = registry.client.timed_call(
        "Routes.BatchCreate", app="import-batch", routes=[route("b", i) for i in range(count)])
    fresh_app("import-single")
    singles_ms = []
    for i in range(singles):
        _, seconds = registry.client.timed_call("Routes.Create", app="import-single", route=route("s", i))
        singles_ms.append(seconds * 1000)
    return {"routes": count, "batch_ms": batch_seconds * 1000, "singles": singles,
            "single_median_ms": statistics.median(singles_ms), "single_last_ms": singles_ms[-1]}


def phase_rss(binary, threads, routes, live, hosts):
    """A fresh server seeded with `routes` routes over `hosts` domains and `live` live versions."""
    registry = Registry(binary, "rss", threads)
    try:
        empty = registry.rss()
        plan = seed.Plan("big", [f"d{i}.big.example" for i in range(hosts)], route_count=routes, live=live, seed=9)
        start = time.time()
        publish = seed.seed(registry.client, plan, progress=lambda m: log(f"rss seeding: {m}"))
        seeded_seconds = time.time() - start
        # Warm-up: every document, every canOpen table, a sample of decisions.
        for host in plan.hosts:
            registry.client.get("/.well-known/apple-app-site-association", host)
        for version in seed.versions(live):
            registry.client.call("CanOpen.GetTable", app=plan.app, platform="ios", version=version)
        for body in seed.check_bodies(plan, count=500):
            registry.client.call("CanOpen.Check", **json.loads(body)["params"])
        after_seed = registry.rss()
        # A restarted server holds the same registry without the garbage of the seeding writes.
        registry.process.stop()
        env = dict(os.environ, ROUTEREG_ADMIN_TOKEN=registry.token)
        registry.process = Process("rss-restart", registry.argv, env=env, wait_for="listening on")
        registry.client = Client(registry.port, registry.token)
        stages = {"restarted": registry.rss()}
        for host in plan.hosts:
            registry.client.get("/.well-known/apple-app-site-association", host)
        for body in seed.check_bodies(plan, count=500):
            registry.client.call("CanOpen.Check", **json.loads(body)["params"])
        stages["documents and decisions"] = registry.rss()
        for version in seed.versions(live):
            registry.client.call("CanOpen.GetTable", app=plan.app, platform="ios", version=version)
        stages["every canOpen table once"] = registry.rss()
        after_restart = registry.rss()
        return {"routes": routes, "live": live, "hosts": hosts, "seed_seconds": seeded_seconds, "empty_mb": empty,
                "publish_last_ms": publish[-1] * 1000 if publish else None,
                "after_seed_mb": after_seed, "after_restart_mb": after_restart, "stages_mb": stages}
    finally:
        registry.stop()


def phase_links(binary, args, rounds, duration, quick):
    """Short links (bench/links.py): serving against nginx, then the service at scale. A failure is recorded,
    not raised: the other phases' results stand."""
    import links
    results = {}
    try:
        # Loopback may receive webhooks: the redirect is measured again with one subscribed.
        registry = Registry(binary, "links", args.threads, extra=("--webhook-private-hosts", "127.0.0.1"))
        try:
            results["serving"] = links.phase_serving(registry, Nginx, alternate_targets, summarize, rounds, duration)
        finally:
            registry.stop()
        count = args.links or (20_000 if quick else 1_000_000)
        results["scale"] = links.phase_scale(lambda: Registry(binary, "links-scale", args.threads), count, log)
        log(f"links: {results['scale']['batch_create_per_second']:,.0f} links/s, "
            f"RSS {results['scale']['rss_mb']:.0f} MB with {count:,}")
    except Exception as error:  # noqa: BLE001 - recorded in the report
        log(f"links: failed: {error}")
        results["error"] = str(error)
    return results


def phase_apps(binary, args, quick):
    """One app's writes with one app in the registry and with twenty, on two servers side by side
    (bench/apps.py). A failure is recorded, not raised."""
    import apps
    single = Registry(binary, "apps-one", args.threads)
    many = Registry(binary, "apps-many", args.threads)
    try:
        count, routes, live = (4, 200, 10) if quick else (20, 1000, 50)
        return apps.phase_apps(single, many, count, routes, live, samples=3 if quick else 9, log=log)
    except Exception as error:  # noqa: BLE001 - recorded in the report
        log(f"apps: failed: {error}")
        return {"error": str(error)}
    finally:
        single.stop()
        many.stop()


def phase_bounds(binary, args, rounds, duration):
    """The worst `CanOpen.Check` the write-time limits allow, an ordinary one, and another tenant's AASA GET
    beside two worst-case Checks (bench/bounds.py). A failure is recorded, not raised."""
    import bounds
    registry = Registry(binary, "bounds", args.threads)
    try:
        return bounds.phase_bounds(registry, wrk, summarize, rounds, duration, log)
    except Exception as error:  # noqa: BLE001 - recorded in the report
        log(f"bounds: failed: {error}")
        return {"error": str(error)}
    finally:
        registry.stop()


def phase_manifest(binary, args, quick):
    """`routereg plan` of a 1,000-route manifest against a 1,000-route app (bench/manifest.py). A failure is
    recorded, not raised."""
    import manifest
    registry = Registry(binary, "manifest", args.threads)
    try:
        return manifest.phase_manifest(registry, binary, 200 if quick else 1000, 3 if quick else 9, log)
    except Exception as error:  # noqa: BLE001 - recorded in the report
        log(f"manifest: failed: {error}")
        return {"error": str(error)}
    finally:
        registry.stop()


def phase_matcher(bin_dir):
    out = subprocess.run([os.path.join(bin_dir, "routereg-bench")], capture_output=True, text=True, timeout=600,
                         check=True).stdout
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].isdigit():
            rows[int(parts[0])] = {"ns": float(parts[1]), "per_second": float(parts[2])}
    return {"rows": rows, "output": out}


# ---------------------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="shorter runs and smaller registries (development)")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--scratch-path", default=os.environ.get("BENCH_SCRATCH_PATH", ".build"))
    parser.add_argument("--bin-dir", help="use routereg and routereg-bench from here (implies --skip-build)")
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--threads", type=int, default=None,
                        help="routereg worker threads (default: routereg's own default; nginx runs 2 workers)")
    parser.add_argument("--thread-counts", default=None,
                        help="the threads phase: thread counts to compare (default 1×, 2× and 4× the cores)")
    parser.add_argument("--rounds", type=int, help="rounds per server (default 3, 1 with --quick)")
    parser.add_argument("--duration", type=int, help="seconds per wrk run (default 10, 3 with --quick)")
    parser.add_argument("--no-report", action="store_true", help="do not rewrite BENCHMARKS.md")
    parser.add_argument("--no-pin", action="store_true",
                        help="servers and wrk share every core (default: server on core 0, wrk on core 1)")
    parser.add_argument("--baseline", help="an earlier run's results JSON to compare with in BENCHMARKS.md")
    parser.add_argument("--baseline-label", default="the previous build", help="how the report names it")
    parser.add_argument("--links", type=int, default=None,
                        help="links of the links phase's scale run (default 1,000,000; 20,000 with --quick)")
    parser.add_argument("--rss-routes", type=int, default=10000,
                        help="routes of the memory phase (200 live versions, 500 routes per domain)")
    args = parser.parse_args()
    phases = args.phases.split(",")
    global PIN
    if args.no_pin or (os.cpu_count() or 1) < 2:
        PIN = None
    for tool in ("wrk", "nginx") + (("taskset",) if PIN else ()):
        if shutil.which(tool) is None:
            sys.exit(f"bench: {tool} is missing (run scripts/bootstrap bench)")
    os.makedirs(RESULTS, exist_ok=True)

    started = time.time()
    scratch = os.path.join(ROOT, args.scratch_path)
    if args.bin_dir:
        bin_dir = os.path.abspath(args.bin_dir)
    elif args.skip_build:
        bin_dir = os.path.join(scratch, "release")
    else:
        bin_dir = build(scratch)
    binary = os.path.join(bin_dir, "routereg")

    quick = args.quick
    rounds, duration = (1, 3) if quick else (3, 10)
    rounds, duration = args.rounds or rounds, args.duration or duration
    results = {"started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "machine": machine(), "quick": quick,
               "settings": {"wrk": "-t1 -c64" if PIN else "-t2 -c64", "pinned": PIN, "rounds": rounds,
                            "duration_s": duration,
                            "threads": args.threads or "default"}}
    sampler = LoadSampler()
    sampler.start()
    try:
        if {"aasa", "table", "check", "publish"} & set(phases):
            registry = Registry(binary, "main", args.threads)
            # The same registry again, without a request log: the second table (and the log's cost).
            quiet = Registry(binary, "quiet", args.threads, quiet=True) if "aasa" in phases else None
            try:
                routes, live = (200, 10) if quick else (1000, 50)
                for server in [registry] + ([quiet] if quiet else []):
                    log(f"{server.name} on port {server.port}: seeding")
                    story = seed_story(server)
                    eight = seed_eight(server)
                    plan = seed.Plan("bench", ["links.bench.example"], route_count=routes, live=live)
                    t = time.time()
                    seed.seed(server.client, plan, progress=lambda m: log(f"seeding: {m}"))
                    results.setdefault("seed_main_seconds", time.time() - t)
                documents = aasa_documents(registry, [story.hosts[0], eight.hosts[0], plan.hosts[0]])
                if "aasa" in phases:
                    # Two more rounds than elsewhere: the ratio to nginx is the tightest target.
                    results["aasa"] = phase_aasa(registry, quiet, documents, rounds + (0 if quick else 2), duration)
                    quiet.stop()
                    quiet = None
                if "table" in phases:
                    results["table"] = phase_table(registry, eight, rounds + (0 if quick else 2), duration)
                if "check" in phases:
                    results["check"] = phase_check(registry, plan, documents[eight.hosts[0]],
                                                   rounds + (0 if quick else 2), duration)
                if "publish" in phases:
                    results["publish"] = phase_publish(registry, plan, 20 if quick else 100, 3 if quick else 7)
                    log(f"publish: median {results['publish']['publish_median_ms']:.1f} ms")
                results["main_rss_mb"] = registry.rss()
            finally:
                registry.stop()
                if quiet:
                    quiet.stop()
        if "threads" in phases:
            cores = len(PIN["server"].split(",")) if PIN else (os.cpu_count() or 1)
            counts = [int(c) for c in args.thread_counts.split(",")] if args.thread_counts else \
                [cores, 2 * cores, 4 * cores]
            results["threads"] = phase_threads(binary, lambda: eight_plan(), counts, rounds, duration)
        if "rss" in phases:
            routes, live, hosts = (1000, 20, 2) if quick else (args.rss_routes, 200, max(1, args.rss_routes // 500))
            results["rss"] = phase_rss(binary, args.threads, routes, live, hosts)
            log(f"rss: {results['rss']['after_restart_mb']}")
        if "links" in phases:
            results["links"] = phase_links(binary, args, rounds, duration, quick)
        if "apps" in phases:
            results["apps"] = phase_apps(binary, args, quick)
        if "matcher" in phases:
            results["matcher"] = phase_matcher(bin_dir)
        if "bounds" in phases:
            results["bounds"] = phase_bounds(binary, args, rounds, duration)
        if "manifest" in phases:
            results["manifest"] = phase_manifest(binary, args, args.quick)
    except BaseException:
        # A phase failed: keep what the others measured.
        with open(os.path.join(RESULTS, "partial.json"), "w") as f:
            json.dump(results, f, indent=2)
        raise
    finally:
        sampler.stop()
    results["load"] = sampler.summary()
    if args.baseline:
        with open(args.baseline) as f:
            results["baseline"] = json.load(f)
        results["baseline"]["label"] = args.baseline_label
    results["total_seconds"] = time.time() - started
    # A run that does not rewrite the report keeps its results apart, so the report's own stay re-renderable.
    with open(os.path.join(RESULTS, "partial.json" if args.no_report else "latest.json"), "w") as f:
        json.dump(results, f, indent=2)
    text = report.render(results)
    if not args.no_report:
        with open(os.path.join(ROOT, "BENCHMARKS.md"), "w") as f:
            f.write(text)
    print(report.summary_table(results))
    log(f"done in {results['total_seconds']:.0f} s")


if __name__ == "__main__":
    main()
