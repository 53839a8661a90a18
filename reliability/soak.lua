-- wrk script for scripts/soak: a mix of the three hot paths, and an exact count of bad statuses.
-- Every third request is each of: GET the AASA, CanOpen.Check, CanOpen.GetTable.
local host = os.getenv("SOAK_HOST") or "soak.example.com"
local app = os.getenv("SOAK_APP") or "soak"
local threads = {}
local counter = 0

local check = '{"jsonrpc":"2.0","id":1,"method":"CanOpen.Check","params":{"app":"' .. app ..
    '","platform":"ios","version":"1.0","url":"https://' .. host .. '/r/7/item"}}'
local table_ = '{"jsonrpc":"2.0","id":2,"method":"CanOpen.GetTable","params":{"app":"' .. app ..
    '","platform":"ios","version":"1.0"}}'

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    bad = 0
    statuses = {}
end

function request()
    counter = counter + 1
    local kind = counter % 3
    if kind == 0 then
        return wrk.format("GET", "/.well-known/apple-app-site-association", { ["Host"] = host })
    elseif kind == 1 then
        -- /rpc answers on the API's own host only (issue 41): wrk's default Host, the server's address.
        return wrk.format("POST", "/rpc", { ["Content-Type"] = "application/json" }, check)
    else
        return wrk.format("POST", "/rpc", { ["Content-Type"] = "application/json" }, table_)
    end
end

function response(status, headers, body)
    if not (status >= 200 and status < 300) and status ~= 304 then
        bad = bad + 1
        statuses[status] = (statuses[status] or 0) + 1
    end
end

function done(summary, latency, requests)
    local total_bad = 0
    for _, thread in ipairs(threads) do
        total_bad = total_bad + thread:get("bad")
    end
    local errors = summary.errors
    io.write(string.format("soak: requests %d, bad statuses %d, socket errors connect %d read %d write %d timeout %d\n",
        summary.requests, total_bad, errors.connect, errors.read, errors.write, errors.timeout))
    io.write(string.format("soak: latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
