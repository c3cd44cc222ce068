/**
 * The cost of running user regexes in a process of their own (src/tools/shared/regex.ts)
 * beside running them on the calling thread as before: search_for_pattern over a generated
 * project, and replace_content's matching on one file. Called by scripts/bench/bench.ts; runs alone:
 *
 * ```sh
 * deno run -A scripts/bench/regex.ts [--files 3000] [--runs 5]
 * ```
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadSettings } from "../../src/config/load.ts";
import { compilePattern } from "../../src/edit/replace.ts";
import { Project } from "../../src/project/project.ts";
import { searchProject } from "../../src/tools/files/search_for_pattern.ts";
import { regexMatches } from "../../src/tools/shared/regex.ts";
import { allMatches, searchFiles } from "../../src/tools/shared/regex_child.ts";
import { generatedTree } from "./lib/project.ts";
import { printHeader, printRow, record } from "./lib/results.ts";

const PATTERN = "class\\s+\\w+";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(runs: number, f: () => Promise<unknown> | unknown): Promise<number> {
  await f(); // warm: modules loaded, files in the OS cache, a child process started
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await f();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Rows for the regex path on `root` (a generated project). */
export async function printRegexBench(root: string, label: string, runs: number): Promise<void> {
  const settings = await loadSettings({ projectRoot: root, globalFile: null });
  const project = Project.open(root, settings);
  const options = {
    pattern: PATTERN,
    contextBefore: 0,
    contextAfter: 0,
    include: "",
    exclude: "",
    relativePath: "",
    codeOnly: false,
    maxChars: 150_000,
  };
  const files: { path: string; absolute: string }[] = [];
  for await (const entry of project.walk(".", { skipIgnored: true })) {
    if (!entry.isDirectory) {
      files.push({ path: entry.path, absolute: project.absolute(entry.path) });
    }
  }
  const regex = compilePattern(PATTERN);
  const inProcess = await timed(runs, async () => {
    // Today's path: walk, then read and match on the calling thread.
    for await (const _ of project.walk(".", { skipIgnored: true })) { /* as searchProject does */ }
    return searchFiles({
      source: regex.source,
      flags: regex.flags,
      files,
      encoding: "utf-8",
      contextBefore: 0,
      contextAfter: 0,
      maxChars: 150_000,
    });
  });
  const child = await timed(runs, () => searchProject(project, options));
  const text = await Deno.readTextFile(join(root, "src", "core.ts"));
  const matchIn = await timed(
    runs * 4,
    () => allMatches({ source: regex.source, flags: regex.flags, text }),
  );
  const matchChild = await timed(runs * 4, () => regexMatches(regex, text));
  printHeader(`User regexes in a process of their own (${label})`);
  for (
    const row of [
      record(
        label,
        "search_for_pattern, regex in a child process",
        child,
        "ms",
        "on the calling thread",
        inProcess,
        `${files.length} files`,
        { quiet: true },
      ),
      record(
        label,
        "replace_content regex matching, child process",
        matchChild,
        "ms",
        "on the calling thread",
        matchIn,
        `${text.length} chars`,
        { quiet: true },
      ),
    ]
  ) printRow(row);
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { files: { type: "string", default: "3000" }, runs: { type: "string", default: "5" } },
  });
  const tree = await generatedTree(Number(values.files));
  try {
    await printRegexBench(tree.root, tree.name, Number(values.runs));
  } finally {
    await tree.dispose();
  }
}
