// The Redis inbox's operations, each one Lua script so that it is atomic across receivers and its reply
// (Lua tables become arrays) reads the same from node-redis and ioredis, over RESP2 or RESP3.
// Stream entries hold two fields: `record` (the event, JSON the inbox wrote) and `attempt` (the run number
// of the entry's first delivery; the group's delivery count adds the runs since).

/**
 * KEYS: seen mark, stream, and optionally an earlier version's seen mark (only checked). ARGV: record, mark
 * TTL ms. 1 when appended; 0 for a redelivery.
 */
export const APPEND = `
if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
if KEYS[3] and redis.call("EXISTS", KEYS[3]) == 1 then return 0 end
redis.call("XADD", KEYS[2], "*", "record", ARGV[1], "attempt", "1")
redis.call("SET", KEYS[1], "1", "PX", ARGV[2])
return 1`;

/**
 * KEYS: stream, retries. ARGV: group, consumer, count, lease ms, now ms, reclaim cursor.
 * Due retries are appended again; entries idle for a lease are taken over (XAUTOCLAIM); new entries fill the
 * rest (XREADGROUP). Returns {next cursor, {{id, record, attempt}, ...}}.
 */
export const TAKE = `
redis.pcall("XGROUP", "CREATE", KEYS[1], ARGV[1], "0", "MKSTREAM")
for _, due in ipairs(redis.call("ZRANGEBYSCORE", KEYS[2], "-inf", ARGV[5], "LIMIT", 0, 100)) do
  local colon = string.find(due, ":", 1, true)
  redis.call("XADD", KEYS[1], "*", "record", string.sub(due, colon + 1), "attempt", string.sub(due, 1, colon - 1))
  redis.call("ZREM", KEYS[2], due)
end
local taken = {}
local function add(entry, deliveries)
  local fields = {}
  for i = 1, #entry[2], 2 do fields[entry[2][i]] = entry[2][i + 1] end
  table.insert(taken, {entry[1], fields.record, tonumber(fields.attempt) + deliveries - 1})
end
local claimed = redis.call("XAUTOCLAIM", KEYS[1], ARGV[1], ARGV[2], ARGV[4], ARGV[6], "COUNT", ARGV[3])
for _, entry in ipairs(claimed[2]) do
  if entry[2] then add(entry, redis.call("XPENDING", KEYS[1], ARGV[1], entry[1], entry[1], 1)[1][4]) end
end
local room = tonumber(ARGV[3]) - #taken
if room > 0 then
  local read = redis.call("XREADGROUP", "GROUP", ARGV[1], ARGV[2], "COUNT", room, "STREAMS", KEYS[1], ">")
  if read then for _, entry in ipairs(read[1][2]) do add(entry, 1) end end
end
return {claimed[1], taken}`;

// ARGV[1..3] of the scripts below: group, consumer, entry id. Each acts only while the consumer holds the
// entry, so a receiver that blocked past its lease never settles an entry another receiver took over.
const HELD = `
local pending = redis.call("XPENDING", KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if #pending == 0 or pending[1][2] ~= ARGV[2] then return 0 end`;

/** KEYS: stream. Restarts the entry's idle time (its lease) without counting a delivery. */
export const RENEW = `${HELD}
redis.call("XCLAIM", KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], "JUSTID")
return 1`;

const REMOVE = `
redis.call("XACK", KEYS[1], ARGV[1], ARGV[3])
redis.call("XDEL", KEYS[1], ARGV[3])`;

/** KEYS: stream. */
export const DONE = `${HELD}${REMOVE}
return 1`;

/** KEYS: stream, retries. ARGV[4]: due ms; ARGV[5]: "attempt:record". */
export const RETRY = `${HELD}${REMOVE}
redis.call("ZADD", KEYS[2], ARGV[4], ARGV[5])
return 1`;

/** KEYS: stream, parked records, parked notes. ARGV[4..6]: key, record, note. */
export const PARK = `${HELD}${REMOVE}
redis.call("HSET", KEYS[2], ARGV[4], ARGV[5])
redis.call("HSET", KEYS[3], ARGV[4], ARGV[6])
return 1`;

/** KEYS: parked records, parked notes. {records HGETALL, notes HGETALL}. */
export const PARKED = `return {redis.call("HGETALL", KEYS[1]), redis.call("HGETALL", KEYS[2])}`;

/** KEYS: parked records, parked notes, stream. ARGV: key. */
export const REPLAY = `
local record = redis.call("HGET", KEYS[1], ARGV[1])
if not record then return 0 end
redis.call("XADD", KEYS[3], "*", "record", record, "attempt", "1")
redis.call("HDEL", KEYS[1], ARGV[1])
redis.call("HDEL", KEYS[2], ARGV[1])
return 1`;

/** KEYS: stream. ARGV: group, consumer. Deletes the consumer from the group when it holds no entry. */
export const LEAVE = `
if redis.call("EXISTS", KEYS[1]) == 0 then return 0 end
local ok, pending = pcall(redis.call, "XPENDING", KEYS[1], ARGV[1], "-", "+", 1, ARGV[2])
if not ok or #pending > 0 then return 0 end
return redis.call("XGROUP", "DELCONSUMER", KEYS[1], ARGV[1], ARGV[2])`;
