-- wrk with a path of its own for each request (bench/wrk.ts, issue 31): `wrk -t T -s <this with the report> <origin>
-- -- <file of paths, one a line> T`. Each thread goes through the list in turn from its own share of it, so that the
-- threads do not ask for the same path at once. The headers given with -H go with every request (wrk.format).
local threads = 0
function setup(thread)
  thread:set("number", threads)
  threads = threads + 1
end

local paths, at = {}, 1
function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then paths[#paths + 1] = line end
  end
  at = 1 + math.floor(number * #paths / tonumber(args[2])) % #paths
end

function request()
  local path = paths[at]
  at = at % #paths + 1
  return wrk.format(nil, path)
end
