-- wrk at an even rate (bench/wrk.ts, issue 31): `wrk -t C -c C -s even-rate.lua <url> -- <rate> <C>`, one connection
-- per thread. Each connection sends its share of the rate: its k-th request is due at start + offset + k * interval,
-- and is timed from when it was due, not from when it was sent (wrk2's correction of coordinated omission). A server
-- that stalls is charged for the requests that waited behind the stall, as a visitor's browser would wait for them.
-- Debian's wrk is built on LuaJIT: its FFI reads the monotonic clock in fractions of a millisecond.
local ffi = require("ffi")
ffi.cdef([[
  typedef struct { long tv_sec; long tv_nsec; } even_rate_timespec;
  int clock_gettime(int clock, even_rate_timespec *now);
]])
local CLOCK_MONOTONIC = 1
local clock = ffi.new("even_rate_timespec")
local function now()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, clock)
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end

-- In wrk's own state: the threads, numbered so that each connection's schedule starts at its own offset.
local threads = {}
function setup(thread)
  thread:set("number", #threads)
  table.insert(threads, thread)
end

-- In each thread's state. `times` is global: done() reads it with thread:get.
local interval, due, sentDue, sentAt
times = {}
function init(args)
  local rate, connections = tonumber(args[1]), tonumber(args[2])
  interval = 1000 * connections / rate
  -- The connections' schedules interleave: together, one request every 1000 / rate ms.
  due = now() + 10 + number * interval / connections
end

-- Milliseconds until the next request is due (wrk waits whole milliseconds: rounded up, a request never goes early).
function delay()
  return math.max(0, math.ceil(due - now()))
end

function request()
  sentDue, sentAt = due, now()
  due = due + interval
  return wrk.request()
end

function response(status, headers, body)
  -- From when it was due, or from when it went if wrk sent it early after all.
  times[#times + 1] = now() - math.min(sentDue, sentAt)
end

-- One JSON line: the responses timed, wrk's errors, and the percentiles in milliseconds.
function done(summary, latency, requests)
  local all = {}
  for _, thread in ipairs(threads) do
    for _, ms in ipairs(thread:get("times")) do all[#all + 1] = ms end
  end
  table.sort(all)
  local function at(p) return all[math.max(1, math.ceil(p * #all))] or 0 end
  local e = summary.errors
  io.write(string.format('EVEN_JSON {"responses":%d,"duration_us":%d,"errors":%d,"status":%d,"p50":%.3f,"p95":%.3f,"p99":%.3f,"max":%.3f}\n',
    #all, summary.duration, e.connect + e.read + e.write + e.timeout, e.status, at(0.5), at(0.95), at(0.99), all[#all] or 0))
end
