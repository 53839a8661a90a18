#!/usr/bin/env python3
"""Instructions per request, counted by valgrind's callgrind: reproducible on a noisy shared machine where
requests per second are not.

Starts `routereg serve` under callgrind with instrumentation off, seeds a small registry through the API, turns
collection on for exactly N requests of one kind on one keep-alive connection, and prints Ir per request
and the functions that cost most (inclusive). The few /healthz requests sent while callgrind_control
switches instrumentation are counted too (a handful against thousands). Compare two binaries or two flag sets by running it twice.

    python3 bench/callgrind.py BINARY [--requests 2000] [--kind aasa|check|table|link|landing] [--routes N --live N --urls N]
        [--] [serve flags...]
    python3 bench/callgrind.py .build/release/routereg --kind aasa -- --access-log /tmp/a.log
"""

import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench  # noqa: E402
import seed  # noqa: E402
from rpc import Client  # noqa: E402


def control(pid, port, *args):
    """Runs callgrind_control, sending cheap requests meanwhile: valgrind reads commands only while the
    program runs, and an idle server (every thread blocked in a system call) would never take it."""
    command = subprocess.Popen(["callgrind_control", *args, str(pid)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while command.poll() is None:
        if time.time() > deadline:
            command.kill()
            raise RuntimeError(f"callgrind_control {' '.join(args)} did not return")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            connection.close()
        except OSError:
            time.sleep(0.05)
    if command.returncode != 0:
        raise RuntimeError(f"callgrind_control {' '.join(args)} failed")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--kind", default="aasa", choices=["aasa", "check", "table", "link", "landing"])
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--routes", type=int, default=140, help="routes of the seeded app (make bench's Check: 1000)")
    parser.add_argument("--live", type=int, default=5, help="live versions of the seeded app (make bench's Check: 50)")
    parser.add_argument("--urls", type=int, default=1,
                        help="check: cycle through this many of the bench's URLs and versions (make bench: 4096)")
    parser.add_argument("--keep", help="copy the callgrind dump here (for callgrind_annotate --tree=caller)")
    parser.add_argument("--settle", type=float, default=20,
                        help="seconds to wait after seeding (the snapshot file is written in the background)")
    argv = sys.argv[1:]
    flags = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.flags = flags
    work = tempfile.mkdtemp(prefix="callgrind-")
    os.chmod(work, 0o755)
    port = bench.free_port()
    token = "prof-" + os.urandom(8).hex()
    env = dict(os.environ, ROUTEREG_ADMIN_TOKEN=token)
    for variable in ("DATABASE_URL", "PGHOST", "PGDATABASE"):
        env.pop(variable, None)
    out = os.path.join(work, "callgrind.out")
    argv = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
            args.binary, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", os.path.join(work, "data"), "--no-delivery-watch",
            *args.flags]
    log = open(os.path.join(work, "server.log"), "w")
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.time() + 600
        for raw in proc.stdout:
            if b"listening on" in raw:
                break
            if time.time() > deadline:
                raise RuntimeError("no 'listening on'")
        client = Client(port, token)
        plan = seed.Plan("eight", ["eight.bench.example"], route_count=args.routes, live=args.live, seed=8)
        seed.seed(client, plan)
        version = seed.versions(plan.live)[-1]
        if args.kind in ("link", "landing"):
            import links
            links.seed(client)
            method, path, body = "GET", "/bench", None
            headers = {"Host": links.HOST}
            if args.kind == "landing":
                headers["User-Agent"] = links.IPHONE
        elif args.kind == "aasa":
            method, path, body, headers = "GET", "/.well-known/apple-app-site-association", None, \
                {"Host": plan.hosts[0]}
        elif args.kind == "table":
            method, path, body, headers = "GET", f"/canopen/v1/{plan.app}/ios/{version}.json", None, {}
        else:
            bodies = seed.check_bodies(plan, count=args.urls)
            method, path, headers = "POST", "/rpc", {"Content-Type": "application/json"}
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        sent = [0]

        def one():
            payload = bodies[sent[0] % len(bodies)] if args.kind == "check" else body
            sent[0] += 1
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status != (302 if args.kind == "link" else 200):
                raise RuntimeError(f"{path}: HTTP {response.status}")

        time.sleep(args.settle)
        for _ in range(50):  # warm: documents built, tables cached, buffers grown
            one()
        control(proc.pid, port, "-i", "on")
        for _ in range(args.requests):
            one()
        control(proc.pid, port, "-i", "off")
        control(proc.pid, port, "-d")
        connection.close()
        client.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
            # Killed, the server could not stop its embedded PostgreSQL: stop it here.
            pid_file = os.path.join(work, "data", "pgdata", "postmaster.pid")
            if os.path.exists(pid_file):
                with open(pid_file) as f:
                    os.kill(int(f.readline()), 2)
        log.close()
    # The dump taken after the measured requests (the one at exit holds nothing: instrumentation is off).
    dumps = [os.path.join(work, f) for f in os.listdir(work) if f.startswith("callgrind.out")]
    best = max(dumps, key=os.path.getsize)
    if args.keep:
        shutil.copyfile(best, args.keep)
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", best], capture_output=True,
                               text=True).stdout.splitlines()
    totals = next(int(line.split()[0].replace(",", "")) for line in annotated if "PROGRAM TOTALS" in line)
    print(f"{args.kind} {' '.join(args.flags)}: {totals / args.requests:,.0f} Ir per request "
          f"({totals:,} over {args.requests})")
    start = next(i for i, line in enumerate(annotated) if "file:function" in line)
    print("\n".join(line[:220] for line in annotated[start + 2:start + 2 + args.top]))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
