/**
 * The first global find_symbol on a never-seen project does not wait for the whole declaration
 * index: the files whose text contains the name are indexed first, in the parse workers, and the
 * answer is exactly the one the same search gives after the full build. On a generated project
 * (scripts/bench/lib/project.ts) where `Core` is named in more than 200 files, with the real
 * typescript-language-server for the file the index does not model.
 *
 * Also: the first search sends progress messages; a search cancelled mid-way leaves the build
 * running to its end, later searches answer, and the workers stop when idle; after a restart
 * the index on disk answers without parsing anything.
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../helpers/assert.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";
import { tempDir } from "../helpers/tool_ctx.ts";
import { generate } from "../../scripts/bench/lib/project.ts";
import { loadSettings } from "../../src/config/load.ts";
import { DeclarationIndex, ParseWorkers } from "../../src/symbols/index/mod.ts";
import { type FindOptions, parseNamePath } from "../../src/symbols/name_path.ts";
import { ServerPool } from "../../src/lsp/pool.ts";
import { SymbolLookup, type SymbolMatch } from "../../src/symbols/lookup.ts";
import { Project } from "../../src/project/project.ts";

/** 2,100 modules: `Core` is named in 211 of them (every tenth), and declared in one. */
const MODULES = 2100;

/** An interface with an index signature: not modelled by the index, so the server answers. */
const UNMODELLED = "import type { Core } from './core.ts';\n\n" +
  "export interface CoreTable {\n  [key: string]: Core;\n}\n";

const SEARCHES: Array<{ name: string; options: FindOptions }> = [
  { name: "Core", options: {} },
  { name: "Core", options: { substring: true } },
  { name: "Core/run", options: {} },
  { name: "Widget1234/render", options: {} },
  { name: "Options2099", options: {} },
];

async function openProject(root: string): Promise<Project> {
  return Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
}

/** What an answer says: file, name path, kind and range of every match. */
function summary(matches: readonly SymbolMatch[]): string[] {
  return matches.map(({ node, file }) => {
    const path: string[] = [];
    for (let n: typeof node | null = node; n !== null; n = n.parent) path.unshift(n.name);
    const r = node.range;
    return `${file.relPath} ${path.join("/")} kind=${node.kind} ` +
      `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
  });
}

interface Engine {
  index: DeclarationIndex;
  symbols: SymbolLookup;
  pool: ServerPool;
  find(name: string, options: FindOptions, signal?: AbortSignal): Promise<SymbolMatch[]>;
  progress: string[];
  [Symbol.asyncDispose](): Promise<void>;
}

async function engine(root: string, workers: ParseWorkers): Promise<Engine> {
  const project = await openProject(root);
  const pool = new ServerPool(project);
  const index = new DeclarationIndex(project, { workers });
  const symbols = new SymbolLookup(project, pool, index);
  const progress: string[] = [];
  return {
    index,
    symbols,
    pool,
    progress,
    find: (name, options, signal) =>
      symbols.find(parseNamePath(name), options, { relPath: ".", isDirectory: true }, {
        signal,
        onProgress: (m) => progress.push(m),
      }),
    async [Symbol.asyncDispose]() {
      await index.dispose();
      await symbols.dispose();
      await pool.dispose();
    },
  };
}

Deno.test({
  name: "first find_symbol before the index is built: > 200 candidates, same answer as after it",
  ignore: skipUnless(hasServer("typescript-language-server"), "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using dir = await tempDir();
  const template = join(dir.path, "template");
  await Deno.mkdir(template);
  await generate(template, MODULES);
  await Deno.writeTextFile(join(template, "src/core_table.ts"), UNMODELLED);
  const copy = async (name: string) => {
    const root = join(dir.path, name);
    await Deno.mkdir(root);
    for (const sub of ["src", "tsconfig.json", "package.json"]) {
      await new Deno.Command("cp", { args: ["-r", join(template, sub), root] }).output();
    }
    return root;
  };
  const workers = new ParseWorkers({ size: 2, idleMs: 200 });
  try {
    // The reference: the index built first, then every search.
    const expected = new Map<string, string[]>();
    {
      await using built = await engine(await copy("built"), workers);
      await built.index.ready();
      for (const s of SEARCHES) {
        expected.set(JSON.stringify(s), summary(await built.find(s.name, s.options)));
      }
    }
    assertEquals(expected.get(JSON.stringify(SEARCHES[0]))!.length, 1, "Core declared once");
    assert(
      expected.get(JSON.stringify(SEARCHES[1]))!.some((m) => m.includes("CoreTable")),
      "the server's answer for the unmodelled file is part of the reference",
    );

    await t.step("searches before and during the build answer as after it", async () => {
      await using fresh = await engine(await copy("fresh"), workers);
      const first = await fresh.find("Core", {});
      assertEquals(summary(first), expected.get(JSON.stringify(SEARCHES[0])));
      const searching = fresh.progress.filter((m) => /Searching .*'Core'/.test(m));
      assert(searching.length > 0, `progress was sent: ${fresh.progress.join("\n")}`);
      // It did not wait for the build (whose progress it would have been shown).
      assert(
        !fresh.progress.some((m) => m.startsWith("Symbol index ready")),
        fresh.progress.join("\n"),
      );
      for (const s of SEARCHES) {
        // Later searches run while the build goes on (or after it: the answer is the same).
        const answer = summary(await fresh.find(s.name, s.options));
        assertEquals(answer, expected.get(JSON.stringify(s)), JSON.stringify(s));
      }
      await fresh.index.ready();
      assertEquals(fresh.index.stats().files, MODULES + 2);
    });

    await t.step("a search cancelled mid-way leaves nothing stuck", async () => {
      await using fresh = await engine(await copy("cancelled"), workers);
      const abort = new AbortController();
      const search = fresh.find("Core", { substring: true }, abort.signal);
      // Cancelled once it is under way: its first progress message is sent synchronously.
      while (fresh.progress.length === 0) await new Promise((r) => setTimeout(r, 1));
      abort.abort();
      await assertRejects(() => search);
      // The build goes on, and the next searches answer in full.
      for (const s of SEARCHES.slice(0, 2)) {
        const answer = summary(await fresh.find(s.name, s.options));
        assertEquals(answer, expected.get(JSON.stringify(s)), JSON.stringify(s));
      }
      await fresh.index.ready();
      // The workers stop once idle (idleMs 200): nothing waits on them.
      for (let i = 0; i < 300 && workers.running > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assertEquals(workers.running, 0, "no parse worker is left running");
    });

    await t.step("after a restart the index on disk answers, with no parse worker", async () => {
      const root = await copy("restarted");
      {
        await using first = await engine(root, workers);
        await first.index.ready();
        await first.index.flush();
      }
      const own = new ParseWorkers({ size: 2 });
      try {
        await using restarted = await engine(root, own);
        for (const s of SEARCHES) {
          const answer = summary(await restarted.find(s.name, s.options));
          assertEquals(answer, expected.get(JSON.stringify(s)), JSON.stringify(s));
        }
        // Every file was checked by size and time against the store: nothing to parse.
        assertEquals(own.running, 0, "no parse worker was started");
      } finally {
        own.close();
      }
    });
  } finally {
    workers.close();
  }
});
