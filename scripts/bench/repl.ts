/**
 * Code mode on a real repository, in `deno task bench`: one agent task, "the files that reference
 * a class, with the containing symbol of each reference, grouped by file", done with direct tool
 * calls and with one `repl` call, reporting calls, characters returned to the agent and time for
 * each. The repository is Sextant's own sources at HEAD (`git archive`), a real TypeScript code
 * base that every checkout has; the class is `Session`.
 *
 * Before it, code mode's own cost: the first call of a session (which starts the code's process),
 * a warm `1 + 1`, an API call through `repl` against the same call made directly, and the memory
 * a session's code costs, beside the figures of code mode in a Worker inside the service (the
 * design before each session's code got a process of its own).
 *
 * `deno run -A scripts/bench/repl.ts` runs it alone.
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSettings } from "../../src/config/load.ts";
import type { Settings } from "../../src/config/schema.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { Project } from "../../src/project/project.ts";
import { Session } from "../../src/session/session.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { callTool } from "../../src/tools/call.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";
import { repl } from "../../src/tools/repl/repl.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";
import { readFile } from "../../src/tools/files/read_file.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TARGET = { name_path: "Session", relative_path: "src/session/session.ts" };

/** The agent's program: references grouped by file, each as its containing symbol's name path. */
const PROGRAM = `const refs = await s.lsp.find_referencing_symbols(${JSON.stringify(TARGET)});
const byFile: Record<string, string[]> = {};
const walk = (file: string, value: unknown): void => {
  if (Array.isArray(value)) {
    for (const item of value) walk(file, item);
  } else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (typeof record.name_path === "string") (byFile[file] ??= []).push(record.name_path);
    else for (const inner of Object.values(record)) walk(file, inner);
  }
};
for (const [file, kinds] of Object.entries(refs.data as Record<string, unknown>)) walk(file, kinds);
byFile`;

async function checkout(): Promise<string> {
  const dir = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-repl-bench-" }));
  const archive = new Deno.Command("git", {
    args: ["archive", "--format=tar", "HEAD"],
    cwd: REPO,
    stdout: "piped",
  }).spawn();
  const untar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
  await archive.stdout.pipeTo(untar.stdin);
  await Promise.all([archive.status, untar.status]);
  return dir;
}

/**
 * Code mode in a Deno Worker inside the service, measured with {@linkcode measureReplCost} at the
 * commit before the child process (939f42b): medians of six runs on a shared, loaded 2-core
 * machine (runs ranged 44–235 ms, 0.9–1.9 ms, 0.9–3.8 ms, 0.4–0.8 ms). `memory` there is what
 * the process itself grew by (1–24 MB).
 */
const BEFORE = { first: 93, trivial: 1.2, api: 1.3, direct: 0.54, memory: 7 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** RSS in MB of this process's code-mode children (Linux; 0 elsewhere or when there are none). */
function childrenRssMb(): number {
  if (Deno.build.os !== "linux") return 0;
  let kb = 0;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const status = Deno.readTextFileSync(`/proc/${entry.name}/status`);
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== Deno.pid) continue;
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      if (!cmdline.includes("data:application/javascript")) continue;
      kb += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch { /* gone */ }
  }
  return kb / 1024;
}

/** Code mode's cost on a fresh session: first call, warm cells, an API call, memory. */
export async function measureReplCost(session: Session<Tool>, runs = 40) {
  const cell = (code: string) => callTool(session, repl, { code });
  const timed = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };
  const rssBefore = Deno.memoryUsage().rss;
  const first = await timed(() => cell("1 + 1"));
  // The code's runtime warms up over its first cells (module loading, JSON, V8's tiers).
  for (let i = 0; i < 100; i++) await cell("1 + 1");
  const args = { relative_path: "deno.json" };
  const trivial: number[] = [];
  const api: number[] = [];
  const direct: number[] = [];
  // Alternated, so that all three see the same machine.
  for (let i = 0; i < runs; i++) {
    trivial.push(await timed(() => cell("1 + 1")));
    direct.push(await timed(() => callTool(session, readFile, args)));
    api.push(await timed(() => cell(`await s.fs.read_file(${JSON.stringify(args)})`)));
  }
  return {
    first,
    trivial: median(trivial),
    api: median(api),
    direct: median(direct),
    // The process's own growth plus the children's, which is where the code now runs.
    memory: (Deno.memoryUsage().rss - rssBefore) / 2 ** 20 + childrenRssMb(),
  };
}

/** Print code mode's cost beside the Worker's (see {@linkcode BEFORE}). */
async function printReplCost(root: string, settings: Settings): Promise<void> {
  const session = new Session({
    settings,
    tools: ALL_TOOLS,
    project: Project.open(root, settings),
  });
  try {
    const now = await measureReplCost(session);
    const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;
    console.log(
      "\nCode mode's own cost: its code runs in a child process per session (capped, killable) " +
        "instead of a Worker inside the service (median of 40 warm runs)\n",
    );
    console.log("| what | child process (now) | Worker in the service (before) |");
    console.log("|---|---|---|");
    console.log(`| first call of a session (starts it) | ${ms(now.first)} | ${ms(BEFORE.first)} |`);
    console.log(`| repl \`1 + 1\`, warm | ${ms(now.trivial)} | ${ms(BEFORE.trivial)} |`);
    console.log(
      `| read_file through repl's API, warm | ${ms(now.api)} | ${ms(BEFORE.api)} |`,
    );
    console.log(`| the same read_file direct | ${ms(now.direct)} | ${ms(BEFORE.direct)} |`);
    console.log(
      `| memory per session's code | ${now.memory.toFixed(0)} MB | ${BEFORE.memory} MB |`,
    );
  } finally {
    await session.dispose();
  }
}

/** Print the task's row: direct tool calls against one repl call, on the same warm session. */
export async function printReplTaskBench(): Promise<void> {
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const root = await checkout();
  const settings = await loadSettings({ projectRoot: root, globalFile: null });
  await printReplCost(root, settings);
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: ALL_TOOLS,
    project: Project.open(root, settings),
  });
  try {
    // Warm the server and the caches once, so both ways are measured warm.
    await callTool(session, findReferencingSymbols, TARGET);
    await callTool(session, repl, { code: "1 + 1" });
    let started = performance.now();
    const direct = await callTool(session, findReferencingSymbols, TARGET);
    const directMs = performance.now() - started;
    started = performance.now();
    const viaRepl = await callTool(session, repl, { code: PROGRAM });
    const replMs = performance.now() - started;
    if (direct.isError || viaRepl.isError) {
      throw new Error(`the task failed: ${direct.isError ? direct.text : viaRepl.text}`);
    }
    const files = Object.keys(JSON.parse(viaRepl.text)).length;
    console.log(
      `\nCode mode on a real repository (Sextant's sources): references to class Session, ` +
        `grouped by file with their containing symbols (${files} files)\n`,
    );
    console.log("| way | calls | characters returned | time |");
    console.log("|---|---|---|---|");
    console.log(
      `| direct tool call (the agent then reads the whole answer) | 1 | ${direct.text.length} | ` +
        `${directMs.toFixed(0)} ms |`,
    );
    console.log(
      `| one repl call (the program groups it; only the result returns) | 1 | ` +
        `${viaRepl.text.length} | ${replMs.toFixed(0)} ms |`,
    );
    console.log(
      `\nratio of characters: ${(viaRepl.text.length / direct.text.length).toFixed(2)}`,
    );
  } finally {
    await session.dispose();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await printReplTaskBench();
