/**
 * What a language server costs, read from /proc (Linux): the resident memory and CPU time of
 * its process and every process below it (typescript-language-server runs tsserver as its child).
 * Elsewhere, or when /proc cannot be read, the figures are unknown (null).
 * @module
 */

/** One process as /proc/<pid>/stat describes it. */
export interface ProcessStat {
  pid: number;
  ppid: number;
  /** User plus system CPU time, in clock ticks. */
  ticks: number;
  /** Resident pages. */
  rssPages: number;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Parse one /proc/<pid>/stat line; null when it is not one. */
export function parseStat(line: string): ProcessStat | null {
  // The command name, in parentheses, may itself hold spaces and parentheses.
  const close = line.lastIndexOf(")");
  const pid = Number.parseInt(line, 10);
  if (close < 0 || !Number.isInteger(pid)) return null;
  const fields = line.slice(close + 2).split(" ");
  // fields[0] is field 3 (state) of proc(5).
  const at = (field: number) => Number(fields[field - 3]);
  const stat = { pid, ppid: at(4), ticks: at(14) + at(15), rssPages: at(24) };
  return Object.values(stat).every(Number.isFinite) ? stat : null;
}

/**
 * Every line of /proc/<pid>/stat. Deno lets a program read /proc/<pid>/ only with every
 * permission (`--allow-all`), which the `sextant` set does not hold; there the lines are read by
 * the shell the set already allows to run, with its built-in `read` (no other program).
 */
async function statLines(): Promise<string[]> {
  try {
    const lines: string[] = [];
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      try {
        lines.push(Deno.readTextFileSync(`/proc/${entry.name}/stat`));
      } catch {
        // Gone since the listing.
      }
    }
    return lines;
  } catch (error) {
    if (
      !(error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied)
    ) {
      return [];
    }
  }
  const script = 'for f in /proc/[0-9]*/stat; do read -r l < "$f" 2>/dev/null && echo "$l"; done';
  return (await shell(script)).split("\n").filter((line) => line !== "");
}

async function shell(script: string): Promise<string> {
  try {
    const out = await new Deno.Command("sh", {
      args: ["-c", script],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return new TextDecoder().decode(out.stdout);
  } catch {
    return "";
  }
}

/** Every process /proc shows, by pid; empty where there is no /proc. */
export async function readProcessTable(): Promise<Map<number, ProcessStat>> {
  const table = new Map<number, ProcessStat>();
  if (Deno.build.os !== "linux") return table;
  for (const line of await statLines()) {
    const stat = parseStat(line);
    if (stat) table.set(stat.pid, stat);
  }
  return table;
}

/** The bytes of a memory page (4096 almost everywhere; some ARM systems use 16 or 64 KiB). */
async function pageSize(): Promise<number> {
  const size = Number((await shell("getconf PAGESIZE 2>/dev/null")).trim());
  return Number.isInteger(size) && size > 0 ? size : 4096;
}

/** The pids of `root` and every process below it. */
export function processTree(root: number, table: ReadonlyMap<number, ProcessStat>): number[] {
  const children = new Map<number, number[]>();
  for (const stat of table.values()) {
    const list = children.get(stat.ppid) ?? [];
    list.push(stat.pid);
    children.set(stat.ppid, list);
  }
  const tree: number[] = [];
  const seen = new Set<number>();
  for (const queue = [root]; queue.length > 0;) {
    const pid = queue.pop()!;
    if (seen.has(pid) || !table.has(pid)) continue;
    seen.add(pid);
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** A process tree's cost. */
export interface ProcessCost {
  /** Resident memory, bytes. */
  rss: number;
  /** CPU time used so far, seconds. */
  cpuSeconds: number;
  /** Share of one core since the previous sample of the same root (percent); null at first. */
  cpuPercent: number | null;
}

/** Samples process trees, remembering each root's CPU time to tell its recent use. */
export class ProcessSampler {
  #pageBytes: Promise<number> | null = null;
  #last = new Map<number, { ticks: number; at: number }>();

  /** The cost of each of `roots` now (null for one that is gone or unreadable). */
  async sample(
    roots: readonly number[],
    now = performance.now(),
  ): Promise<Map<number, ProcessCost | null>> {
    if (roots.length === 0) return new Map();
    this.#pageBytes ??= pageSize();
    const pageBytes = await this.#pageBytes;
    const table = await readProcessTable();
    const out = new Map<number, ProcessCost | null>();
    const next = new Map<number, { ticks: number; at: number }>();
    for (const root of roots) {
      const tree = processTree(root, table);
      if (tree.length === 0) {
        out.set(root, null);
        continue;
      }
      let ticks = 0;
      let pages = 0;
      for (const pid of tree) {
        ticks += table.get(pid)!.ticks;
        pages += table.get(pid)!.rssPages;
      }
      const before = this.#last.get(root);
      const seconds = before ? (now - before.at) / 1000 : 0;
      out.set(root, {
        rss: pages * pageBytes,
        cpuSeconds: ticks / TICKS_PER_SECOND,
        cpuPercent: before && seconds > 0
          ? Math.max(0, ((ticks - before.ticks) / TICKS_PER_SECOND / seconds) * 100)
          : null,
      });
      next.set(root, { ticks, at: now });
    }
    this.#last = next;
    return out;
  }
}
