#!/usr/bin/env python3
"""The transport floor (issue #33): libmicrohttpd and h2o answering from memory with nothing above them,
against nginx serving the same bytes, to learn whether swapping routereg's transport could pay.

Builds mhd_floor.c and h2o_floor.c (gcc -O2), starts them and three nginx (tuned with its access log, tuned
without, as Debian ships it with the log: bench/nginx.conf.template via bench.py's Nginx), and runs
`wrk -t2 -c64` on every endpoint, the servers taking turns and the order reversed every other round. Two
variants of mhd_floor's answer run beside: the documents at /<name>-sendfile (sent from a memfd by sendfile(2))
and /rpc-prebuilt (one shared answer instead of one built per call, as routereg does). The
reading that matters is CPU time per request (user + system from /proc, nginx's workers included): the
machine is shared, so requests per second move with whatever else runs.

    python3 bench/transport/floor.py [--rounds 3] [--duration 8] [--endpoints small,rpc] [--markdown FILE]
                                     [--perf small,large]   # then where each server's CPU goes, by binary

`make bench-transport` installs what it needs (gcc, wrk, nginx, libmicrohttpd-dev, libh2o-evloop-dev and
libssl-dev: `scripts/bootstrap transport`) and runs it.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import bench  # noqa: E402  (bench/bench.py: its Nginx, wrk, CPU reading and load sampler, so nothing differs)

# A CanOpen.Check-sized JSON-RPC call (about 150 bytes), POSTed by bench/wrk/load.lua (BENCH_BODIES).
RPC_BODY = ('{"jsonrpc":"2.0","id":1,"method":"CanOpen.Check","params":{"app":"badoo","version":"4.12.0",'
            '"url":"https://m.badoo.com/p/000123/profile?ref=push"}}')
ENDPOINTS = ["small", "medium", "large", "redirect", "rpc", "later"]
LABELS = {"small": "GET 2,398 B", "medium": "GET 8,031 B", "large": "GET 57,411 B", "redirect": "GET 302",
          "rpc": "POST /rpc (JSON-RPC)", "later": "GET answered by another thread"}
DOCUMENTS = ("small", "medium", "large")
# Variants of mhd_floor's answer, asked at the endpoint's path plus a suffix, for these endpoints only.
ALIASES = {"mhd_sendfile": ("-sendfile", DOCUMENTS), "mhd_prebuilt": ("-prebuilt", ("rpc",))}
SERVERS = {"mhd": "libmicrohttpd floor", "mhd_sendfile": "libmicrohttpd floor, body by sendfile from a memfd",
           "mhd_prebuilt": "libmicrohttpd floor, one prebuilt answer", "h2o": "h2o floor",
           "nginx_tuned": "nginx tuned, access log", "nginx_tuned_off": "nginx tuned, access log off",
           "nginx": "nginx as shipped, access log"}


def compile_floors(out_dir):
    flags = ["gcc", "-O2", "-Wall", "-Wextra", "-Werror"]
    h2o = subprocess.run(["pkg-config", "--cflags", "--libs", "libh2o-evloop"], check=True, capture_output=True,
                         text=True).stdout.split()
    binaries = {}
    # Debian's libh2o-evloop.pc leaves H2O_USE_LIBUV out, and without it h2o.h includes uv.h.
    for name, extra in (("mhd", ["-lmicrohttpd", "-lpthread"]), ("h2o", ["-DH2O_USE_LIBUV=0"] + h2o + ["-lpthread"])):
        binary = os.path.join(out_dir, f"{name}_floor")
        subprocess.run(flags + ["-o", binary, os.path.join(HERE, f"{name}_floor.c")] + extra, check=True)
        binaries[name] = binary
    return binaries


def stat(pid):
    """(user ticks, system ticks, parent pid) of process `pid` (all its threads), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return None
    return int(fields[11]), int(fields[12]), int(fields[1])


def children(pid):
    return [int(entry) for entry in os.listdir("/proc")
            if entry.isdigit() and (entry_stat := stat(entry)) is not None and entry_stat[2] == pid]


def cpu_ticks(pid):
    """(user, system) clock ticks so far of `pid` and its children (nginx's workers): bench.cpu_seconds split
    in two, since what the kernel spends (loopback TCP) no HTTP library can save."""
    user = system = 0
    for process in [pid] + children(pid):
        ticks = stat(process)
        if ticks is not None:
            user, system = user + ticks[0], system + ticks[1]
    return user, system


def children_cpu():
    """CPU seconds of the waited-for children: around one wrk run (the servers are not waited for), wrk's."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fetch(port, path, data=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data)
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


class Floor:
    """A floor server on a free port; `pid` for its CPU time."""

    def __init__(self, name, binary):
        self.port = bench.free_port()
        self.process = bench.Process(f"{name}_floor", [binary, str(self.port)], wait_for="listening on", timeout=20)
        self.pid = self.process.pid
        self.access_log = None

    def stop(self):
        self.process.stop(timeout=10)


class Alias:
    """Another way of answering in the same server: the same port and process, `suffix` added to the path."""

    def __init__(self, server, suffix):
        self.port, self.pid, self.access_log, self.suffix = server.port, server.pid, None, suffix

    def stop(self):
        pass


def serves(name, endpoint):
    if name in ALIASES:
        return endpoint in ALIASES[name][1]
    return endpoint != "later" or name in ("mhd", "h2o")


def url(server, endpoint):
    return f"http://127.0.0.1:{server.port}/{endpoint}{getattr(server, 'suffix', '')}"


def start_servers(binaries):
    mhd = Floor("mhd", binaries["mhd"])
    servers = {"mhd": mhd, **{name: Alias(mhd, suffix) for name, (suffix, _) in ALIASES.items()},
               "h2o": Floor("h2o", binaries["h2o"])}
    files = {f"/{name}": fetch(mhd.port, f"/{name}") for name in DOCUMENTS}
    answer = fetch(mhd.port, "/rpc", RPC_BODY.encode()).decode()
    location = "https://apps.apple.com/app/id1234567890?pt=117&ct=short-link&mt=8"
    # The 302 as bench/links.py has nginx answer one (`return 302`, which adds nginx's small HTML body); the
    # JSON-RPC answer as a fixed `return 200` (nginx reads and discards the body).
    extra = (f'location = /redirect {{ return 302 "{location}"; }}\n'
             f"        location = /rpc {{ default_type application/json; return 200 '{answer}'; }}")
    for name, tuned, access_log in (("nginx_tuned", True, True), ("nginx_tuned_off", True, False),
                                    ("nginx", False, True)):
        nginx = bench.Nginx(files, access_log=access_log, tuned=tuned, extra=extra)
        nginx.pid = nginx.process.pid
        servers[name] = nginx
    for name, server in servers.items():
        for path, data in files.items():
            if serves(name, path[1:]) and fetch(server.port, path + getattr(server, "suffix", "")) != data:
                raise RuntimeError(f"{name} serves different bytes at {path}")
        if serves(name, "rpc") and fetch(server.port, "/rpc" + getattr(server, "suffix", ""),
                                         RPC_BODY.encode()).decode() != answer:
            raise RuntimeError(f"{name} answers /rpc differently")
    for name in binaries:
        if fetch(servers[name].port, "/later") != b'{"changed":true}':
            raise RuntimeError(f"{name} answers /later wrongly")
    return servers


def run(servers, endpoints, rounds, duration, bodies):
    """{endpoint: {server: [wrk result with cpu_us_per_request, per round]}}, servers alternating."""
    results = {}
    for endpoint in endpoints:
        names = [name for name in servers if serves(name, endpoint)]
        env = {"BENCH_BODIES": bodies} if endpoint == "rpc" else {}
        results[endpoint] = {name: [] for name in names}
        for r in range(rounds):
            for name in names if r % 2 == 0 else list(reversed(names)):
                server = servers[name]
                if server.access_log and os.path.exists(server.access_log):
                    os.truncate(server.access_log, 0)  # each run starts with an empty log, as in bench.py
                before, wrk_before = cpu_ticks(server.pid), children_cpu()
                result = bench.wrk(url(server, endpoint), duration, env=env)
                after, wrk_after = cpu_ticks(server.pid), children_cpu()
                per_request = 1e6 / os.sysconf("SC_CLK_TCK") / max(result["requests"], 1)
                result["user_us_per_request"] = (after[0] - before[0]) * per_request
                result["system_us_per_request"] = (after[1] - before[1]) * per_request
                result["cpu_us_per_request"] = result["user_us_per_request"] + result["system_us_per_request"]
                # wrk shares the two cores: rps follow server + wrk CPU per request, not the server's alone.
                result["wrk_us_per_request"] = (wrk_after - wrk_before) / max(result["requests"], 1) * 1e6
                errors = sum(result["errors"].values())
                results[endpoint][name].append(result)
                bench.log(f"{endpoint} {name} round {r + 1}: {result['rps']:.0f} rps, "
                          f"{result['cpu_us_per_request']:.2f} µs CPU/request "
                          f"({result['user_us_per_request']:.1f} user), p99 {result['p99_ms']:.2f} ms"
                          + (f", {errors} errors" if errors else ""))
    return results


def perf_split(servers, endpoints, seconds, bodies, scratch):
    """Where each server's CPU goes by binary (the kernel, libc, the HTTP library, the program): `perf record`
    of its threads (nginx's workers) during one more wrk run. {endpoint: {server: {binary: percent}}}."""
    split = {}
    for endpoint in endpoints:
        split[endpoint] = {}
        for name in ("mhd", *ALIASES, "h2o", "nginx_tuned_off"):
            if not serves(name, endpoint):
                continue
            server = servers[name]
            data = os.path.join(scratch, f"perf-{name}-{endpoint}.data")
            pids = ",".join(str(pid) for pid in [server.pid] + children(server.pid))
            perf = subprocess.Popen(["perf", "record", "-q", "-F", "999", "-o", data, "-p", pids, "--", "sleep",
                                     str(seconds)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            bench.wrk(url(server, endpoint), seconds,
                      env={"BENCH_BODIES": bodies} if endpoint == "rpc" else {})
            perf.wait(timeout=60)
            out = subprocess.run(["perf", "report", "-i", data, "--sort", "dso", "--stdio", "-q"],
                                 capture_output=True, text=True, timeout=120).stdout
            shares = {}
            for line in out.splitlines():
                fields = line.split()
                if len(fields) >= 2 and fields[0].endswith("%"):
                    shares[fields[1]] = float(fields[0][:-1])
            split[endpoint][name] = shares
            bench.log(f"perf {endpoint} {name}: " + ", ".join(f"{k} {v:.1f}%" for k, v in list(shares.items())[:5]))
    return split


def perf_markdown(split):
    lines = ["", "Where the CPU goes (`perf record`, share of the server's samples; nginx with its log off):", "",
             "| endpoint | server | kernel | HTTP library / nginx | libc | rest |", "|---|---|---|---|---|---|"]
    for endpoint, by_server in split.items():
        for name, shares in by_server.items():
            kernel = sum(v for k, v in shares.items() if k.startswith("[kernel"))
            library = sum(v for k, v in shares.items() if "microhttpd" in k or "h2o" in k or k == "nginx")
            libc = sum(v for k, v in shares.items() if k.startswith("libc"))
            rest = max(0.0, sum(shares.values()) - kernel - library - libc)
            lines.append(f"| {LABELS[endpoint]} | {SERVERS[name]} | {kernel:.1f} % | {library:.1f} % | "
                         f"{libc:.1f} % | {rest:.1f} % |")
    return "\n".join(lines) + "\n"


def summarize(runs):
    return {"rps": statistics.median(r["rps"] for r in runs),
            "cpu_us": statistics.median(r["cpu_us_per_request"] for r in runs),
            "cpu_us_rounds": [round(r["cpu_us_per_request"], 2) for r in runs],
            "user_us": statistics.median(r["user_us_per_request"] for r in runs),
            "system_us": statistics.median(r["system_us_per_request"] for r in runs),
            "wrk_us": statistics.median(r["wrk_us_per_request"] for r in runs),
            "p99_ms": statistics.median(r["p99_ms"] for r in runs),
            "errors": sum(sum(r["errors"].values()) for r in runs)}


def markdown(summary):
    lines = ["| endpoint | server | rps (median) | CPU µs/request (median) | user + system µs | CPU µs per round | "
             "wrk µs/request | p99 ms | errors |", "|---|---|---|---|---|---|---|---|---|"]
    for endpoint, by_server in summary.items():
        for name, s in by_server.items():
            rounds = ", ".join(f"{v:.2f}" for v in s["cpu_us_rounds"])
            lines.append(f"| {LABELS[endpoint]} | {SERVERS[name]} | {s['rps']:,.0f} | {s['cpu_us']:.2f} | "
                         f"{s['user_us']:.1f} + {s['system_us']:.1f} | {rounds} | {s['wrk_us']:.1f} | "
                         f"{s['p99_ms']:.2f} | {s['errors']} |")
    lines += ["", "CPU per request, ratios (>1: the second server is cheaper):", "",
              "| endpoint | nginx tuned / MHD | nginx tuned / MHD variant | nginx tuned / h2o | MHD / h2o |",
              "|---|---|---|---|---|"]

    def ratio(s, a, b):
        return f"{s[a]['cpu_us'] / s[b]['cpu_us']:.2f}" if a in s and b in s else "—"
    for endpoint, s in summary.items():
        lines.append(f"| {LABELS[endpoint]} | {ratio(s, 'nginx_tuned', 'mhd')} | "
                     f"{ratio(s, 'nginx_tuned', 'mhd_sendfile' if 'mhd_sendfile' in s else 'mhd_prebuilt')} | "
                     f"{ratio(s, 'nginx_tuned', 'h2o')} | "
                     f"{ratio(s, 'mhd', 'h2o')} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=8, help="seconds per wrk run")
    parser.add_argument("--endpoints", default=",".join(ENDPOINTS))
    parser.add_argument("--markdown", help="also write the tables to this file")
    parser.add_argument("--perf", default="", help="endpoints to profile by binary with perf after the rounds")
    args = parser.parse_args()
    endpoints = [e for e in args.endpoints.split(",") if e]
    os.makedirs(bench.RESULTS, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="transport-floor-", dir=bench.RESULTS)
    binaries = compile_floors(scratch)
    bodies = os.path.join(scratch, "rpc-bodies.txt")
    with open(bodies, "w") as f:
        f.write(RPC_BODY + "\n")
    sampler = bench.LoadSampler()
    sampler.start()
    started = time.time()
    servers = start_servers(binaries)
    try:
        results = run(servers, endpoints, args.rounds, args.duration, bodies)
        split = perf_split(servers, [e for e in args.perf.split(",") if e], args.duration, bodies, scratch)
    finally:
        for server in servers.values():
            server.stop()
        sampler.stop()
    summary = {endpoint: {name: summarize(runs) for name, runs in by_server.items()}
               for endpoint, by_server in results.items()}
    load = sampler.summary()
    loads = " / ".join(f"{key} {load[key]:.1f}" for key in ("min", "median", "max") if key in load)
    header = (f"{args.rounds} rounds of `wrk -t2 -c64 -d{args.duration}s` per server and endpoint, servers "
              f"alternating; {time.time() - started:.0f} s; load average (1 min) {loads}; "
              f"{os.cpu_count()} cores.\n\n")
    text = header + markdown(summary) + (perf_markdown(split) if split else "")
    print(text)
    with open(os.path.join(bench.RESULTS, "transport-floor.json"), "w") as f:
        json.dump({"load": load, "summary": summary, "perf": split, "runs": results}, f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
