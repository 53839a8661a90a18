-- One wrk script for every run.
--   BENCH_BODIES=file   POST each line of the file to /rpc in turn (JSON-RPC bodies), per thread offset
--   BENCH_HOST=name     Host header for GETs (the domain whose AASA is served)
--   BENCH_INM=etag      If-None-Match header for GETs
--   BENCH_UA=agent      User-Agent header (none otherwise: a short link then answers as to a desktop browser)
-- At the end it prints one line "BENCHJSON {...}" with requests/s, latency percentiles (ms) and errors.

local bodies = {}
local requests = {}
local counter = 0
local thread_index = 0
local threads = {}

function setup(thread)
  thread:set("id", thread_index)
  thread_index = thread_index + 1
  table.insert(threads, thread)
end

function init(args)
  local file = os.getenv("BENCH_BODIES")
  local host = os.getenv("BENCH_HOST")
  local inm = os.getenv("BENCH_INM")
  local agent = os.getenv("BENCH_UA")
  if agent and agent ~= "" then wrk.headers["User-Agent"] = agent end
  if host and host ~= "" then wrk.headers["Host"] = host end
  if inm and inm ~= "" then wrk.headers["If-None-Match"] = inm end
  if file and file ~= "" then
    wrk.method = "POST"
    wrk.path = "/rpc"
    wrk.headers["Content-Type"] = "application/json"
    for line in io.lines(file) do
      if #line > 0 then
        table.insert(requests, wrk.format("POST", "/rpc", wrk.headers, line))
      end
    end
    counter = (id or 0) * 997
  end
end

function request()
  if #requests == 0 then return wrk.format() end
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end

-- No response() callback: defining one makes wrk parse every reply in Lua, which would slow the
-- load generator (it shares the two cores with the server). wrk counts statuses >= 400 in errors.status.
function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  print(string.format(
    'BENCHJSON {"requests":%d,"seconds":%.3f,"rps":%.1f,"p50_ms":%.3f,"p90_ms":%.3f,"p99_ms":%.3f,' ..
    '"max_ms":%.3f,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}',
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.connect, e.read, e.write, e.status, e.timeout))
end
