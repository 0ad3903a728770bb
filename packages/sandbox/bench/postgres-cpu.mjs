// The CPU time a PostgreSQL cluster's processes have spent (the postmaster and its children: the sandboxes'
// backends, the background workers), read from /proc, so a bench can give CPU per request of the sandbox and
// its database together. Linux only; elsewhere it reads 0 and the bench says so.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on every Linux build the bench runs on). */
const TICKS_PER_SECOND = 100;

/**
 * pid, parent pid, CPU ticks (user + system) of a /proc/<pid>/stat line, and those of its children that ended (and
 * were waited for); undefined when unreadable.
 */
function statOf(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name sits in parentheses and may hold spaces: the fields count from after it.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return {
      pid: Number(pid),
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      endedChildrenTicks: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/** The postmaster of the cluster listening on `port` (its command line names the port). */
function postmasterOf(port) {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (/postgres$/.test(args[0] ?? "") && args.join(" ").includes(`-p ${port}`)) return Number(pid);
    } catch {
      // A process that ended meanwhile.
    }
  }
  return undefined;
}

/**
 * A reader of the cluster's CPU time in µs (0 when it cannot be read).
 *
 * @example
 * const cpu = postgresCpu(server.port); const before = cpu(); ... ; const spentUs = cpu() - before;
 */
export function postgresCpu(port) {
  const postmaster = postmasterOf(port);
  return () => {
    if (postmaster === undefined) return 0;
    let ticks = 0;
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      const stat = statOf(pid);
      if (stat && (stat.pid === postmaster || stat.ppid === postmaster)) ticks += stat.ticks;
      // A backend that exits (a pooled connection closed while idle) takes its time out of the sum above: the
      // postmaster's count of its ended children has it.
      if (stat?.pid === postmaster) ticks += stat.endedChildrenTicks;
    }
    return (ticks / TICKS_PER_SECOND) * 1e6;
  };
}
