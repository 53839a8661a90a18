// A loopback TCP proxy that can stop forwarding on its open connections without closing them: what a NAT or
// proxy that silently drops a connection looks like to both ends. New connections are forwarded normally.
import net from "node:net";

export async function startStallingProxy(targetPort) {
  const pairs = new Set();
  let connections = 0;
  const server = net.createServer((downstream) => {
    connections += 1;
    const upstream = net.connect(targetPort, "127.0.0.1");
    const pair = { downstream, upstream, stalled: false };
    pairs.add(pair);
    downstream.on("data", (chunk) => { if (!pair.stalled) upstream.write(chunk); });
    upstream.on("data", (chunk) => { if (!pair.stalled) downstream.write(chunk); });
    const end = () => {
      pairs.delete(pair);
      if (pair.stalled) return; // a dropped connection never tells the other side anything
      downstream.destroy();
      upstream.destroy();
    };
    downstream.on("close", end);
    upstream.on("close", end);
    downstream.on("error", () => {});
    upstream.on("error", () => {});
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** Stops forwarding on every connection open now; both sockets stay open. */
    stall() {
      for (const pair of pairs) pair.stalled = true;
    },
    /** How many connections clients opened through the proxy. */
    get connections() {
      return connections;
    },
    close() {
      for (const pair of pairs) {
        pair.downstream.destroy();
        pair.upstream.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
