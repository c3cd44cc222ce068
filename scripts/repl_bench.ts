/**
 * Code mode on a real repository, in `deno task bench`: one agent task, "the files that reference
 * a class, with the containing symbol of each reference, grouped by file", done with direct tool
 * calls and with one `repl` call, reporting calls, characters returned to the agent and time for
 * each. The repository is Sextant's own sources at HEAD (`git archive`), a real TypeScript code
 * base that every checkout has; the class is `Session`.
 *
 * `deno run -A scripts/repl_bench.ts` runs it alone.
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSettings } from "../src/config/load.ts";
import { LSP_PATH_ENV } from "../src/lsp/registry.ts";
import { Project } from "../src/project/project.ts";
import { Session } from "../src/session.ts";
import { ProjectHost } from "../src/project_host.ts";
import { callTool } from "../src/tools/call.ts";
import { ALL_TOOLS } from "../src/tools/mod.ts";
import { repl } from "../src/tools/repl/repl.ts";
import { findReferencingSymbols } from "../src/tools/symbols/find_referencing_symbols.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const TARGET = { name_path: "Session", relative_path: "src/session.ts" };

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

/** Print the task's row: direct tool calls against one repl call, on the same warm session. */
export async function printReplTaskBench(): Promise<void> {
  if (!Deno.env.get(LSP_PATH_ENV)) Deno.env.set(LSP_PATH_ENV, join(REPO, ".cache", "lsp"));
  const root = await checkout();
  const settings = await loadSettings({ projectRoot: root, globalFile: null });
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
