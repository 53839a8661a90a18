"""Opens N idle TCP connections to 127.0.0.1:PORT, checks a normal request still succeeds on a fresh
connection while they are open, then closes them. Prints one summary line; exits 1 if the request failed.
usage: python3 idle.py PORT N HOST"""
import socket
import sys
import time

port, count, host = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sockets, refused = [], 0
for _ in range(count):
    s = socket.socket()
    # A server at its connection limit stops accepting: the kernel backlog fills and connect() would hang
    # for minutes, so a connect that takes over 2 s counts as refused.
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", port))
        sockets.append(s)
    except OSError:
        refused += 1
        s.close()
        if refused >= 20:
            break  # the server stopped accepting: more attempts would only wait
time.sleep(1)
# Connections the server accepted and closed at once (over its limit) read as end of stream.
closed = 0
for s in sockets:
    s.setblocking(False)
    try:
        if s.recv(1) == b"":
            closed += 1
    except BlockingIOError:
        pass
    except OSError:
        closed += 1


def probe():
    started = time.monotonic()
    try:
        c = socket.create_connection(("127.0.0.1", port), timeout=10)
        c.sendall(f"GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while True:
            chunk = c.recv(65536)
            if not chunk:
                break
            data += chunk
        c.close()
        return data.startswith(b"HTTP/1.1 200"), time.monotonic() - started
    except OSError:
        return False, time.monotonic() - started


ok, seconds = probe()
held = len(sockets) - closed
for s in sockets:
    s.close()
after_ok, _ = probe()
print(f"idle: {count} wanted, {len(sockets)} connected, {refused} refused or timed out at connect, {closed} closed by the server, {held} held; "
      f"request during: {'ok' if ok else 'FAILED'} in {seconds * 1000:.0f} ms; after: {'ok' if after_ok else 'FAILED'}")
sys.exit(0 if ok and after_ok else 1)
