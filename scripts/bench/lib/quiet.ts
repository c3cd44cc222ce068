/**
 * Waiting for a process tree to be quiet, from /proc (Linux): a session is warm once the work its
 * first answer started (the declaration index's build, the server's project load) is done.
 * @module
 */
import { join } from "node:path";

/** CPU time (user + system) of the processes, ms (clock ticks of 10 ms). */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* gone */ }
  }
  return ticks * 10;
}

/**
 * Wait until `pid` and the processes below it are quiet (under 5% of a core over half a
 * second), at most `maxMs`: a service is warm once the work its first answer started (the
 * declaration index's build, the server's project load) is done. Returns the time waited.
 */
export async function quiet(pid: number, maxMs = 30_000): Promise<number> {
  const started = performance.now();
  let before = cpuMs(processTree(pid));
  while (performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuMs(processTree(pid));
    if (now - before <= 25) break;
    before = now;
  }
  return performance.now() - started;
}

/** `pid` and every process below it (children of children...), from /proc. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of Deno.readDirSync("/proc")) {
    const child = Number(entry.name);
    if (!Number.isInteger(child)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${child}/stat`);
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), child]);
    } catch { /* gone */ }
  }
  const out: number[] = [];
  const visit = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return out;
}

/**
 * The pid of the shared service whose endpoint file is in a private runtime folder (the
 * `XDG_RUNTIME_DIR` a bench gave its fronts), or null before it has started.
 */
export function servicePidIn(runtime: string): number | null {
  try {
    for (const entry of Deno.readDirSync(join(runtime, "sextant"))) {
      if (!entry.name.endsWith(".json")) continue;
      const endpoint = JSON.parse(Deno.readTextFileSync(join(runtime, "sextant", entry.name)));
      if (typeof endpoint.pid === "number") return endpoint.pid;
    }
  } catch { /* not started yet */ }
  return null;
}
