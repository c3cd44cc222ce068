/**
 * A question that does not need the declaration index's build holds it back (a cold references
 * question): the build then makes no progress, neither its walk nor its parses, while the
 * question's own file is parsed ahead; released, the build resumes and completes. Whoever waits
 * for the build while it is held (a global find_symbol's ready(), a search over a folder) still
 * gets it: nothing waits on a build that its own question holds back. On real parse workers.
 */
import { assert, assertEquals } from "../../helpers/assert.ts";
import { tempDir, writeTree } from "../../helpers/tool_ctx.ts";
import { loadSettings } from "../../../src/config/load.ts";
import { Project } from "../../../src/project/project.ts";
import { DeclarationIndex, ParseWorkers } from "../../../src/symbols/index/mod.ts";

const MODULES = 300;

async function project(path: string): Promise<Project> {
  const files: Record<string, string> = {};
  for (let i = 0; i < MODULES; i++) {
    files[`src/p${i % 10}/m${i}.ts`] = `export class Widget${i} {}\n`;
  }
  await writeTree(path, files);
  return Project.open(path, await loadSettings({ projectRoot: path, globalFile: null }));
}

Deno.test({
  name:
    "held, the build makes no progress but the question's own file is parsed; released, it completes",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  const workers = new ParseWorkers({ size: 2, idleMs: 60_000 });
  const index = new DeclarationIndex(await project(dir.path), {
    workers,
    watch: false,
    persist: false,
  });
  try {
    const release = index.holdBuild();
    let built = false;
    const build = index.start().then(() => built = true);
    // The question's own file, sent ahead of the walk and the held build.
    assert(await index.prepareFor("Widget7", { scope: "src/p7/m7.ts" }));
    assertEquals(index.candidates("Widget7"), ["src/p7/m7.ts"]);
    // Time enough for the build to index many files, were it not held.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert(!built);
    assertEquals(index.indexedFiles(), ["src/p7/m7.ts"], "nothing indexed but the question's file");
    assertEquals(index.allFiles().length, 1, "the walk waits too");
    assertEquals(workers.running, 1, "one worker while held");
    release();
    await build;
    assert(index.built);
    assertEquals(index.indexedFiles().length, MODULES);
    assertEquals(index.candidates("Widget299"), ["src/p9/m299.ts"]);
  } finally {
    await index.dispose();
    workers.close();
  }
});

Deno.test({
  name: "held, whoever waits for the build still gets it: ready(), a search over a folder",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  const root = await project(dir.path);
  for (const waiter of ["folder", "ready"] as const) {
    const workers = new ParseWorkers({ size: 2, idleMs: 60_000 });
    const index = new DeclarationIndex(root, { workers, watch: false, persist: false });
    try {
      const release = index.holdBuild();
      index.start().catch(() => {});
      if (waiter === "folder") {
        // Needs the walk to end and the pumps: the hold gives way while it runs.
        assert(await index.prepareFor("Widget42", { scope: "src/p2" }));
        assertEquals(index.candidates("Widget42", { scope: "src/p2" }), ["src/p2/m42.ts"]);
      } else {
        await index.ready();
        assert(index.built);
        assertEquals(index.indexedFiles().length, MODULES);
      }
      release();
      await index.ready();
      assertEquals(index.candidates("Widget42"), ["src/p2/m42.ts"]);
    } finally {
      await index.dispose();
      workers.close();
    }
  }
});

Deno.test({
  name:
    "held, files parsed ahead for a slow answer; asked for by the answer first, only those it names",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  const root = await project(dir.path);
  const files = ["src/p1/m1.ts", "src/p2/m2.ts", "src/p3/m3.ts"];
  for (const delayMs of [0, 600_000]) {
    const workers = new ParseWorkers({ size: 2, idleMs: 60_000 });
    // Every file sent ahead, with its needle.
    const sent: string[] = [];
    const runAhead = workers.runAhead.bind(workers);
    workers.runAhead = (jobs, onResults, signal) => {
      sent.push(...jobs.map((j) => `${j.relPath}:${j.needle}`));
      return runAhead(jobs, onResults, signal);
    };
    const index = new DeclarationIndex(root, { workers, watch: false, persist: false });
    try {
      const release = index.holdBuild();
      index.start().catch(() => {});
      index.parseAhead("Widget", files, delayMs);
      if (delayMs === 0) {
        // The server was slow: all three are parsed while the build waits.
        for (let i = 0; i < 400 && index.indexedFiles().length < 3; i++) {
          await new Promise((r) => setTimeout(r, 25));
        }
        assertEquals(index.indexedFiles(), files);
      }
      // The answer names one file (asked twice at once: parsed once).
      await Promise.all([
        index.prepareFor("Widget", { scope: "src/p2/m2.ts" }),
        index.prepareFor("Widget", { scope: "src/p2/m2.ts" }),
      ]);
      assertEquals(
        sent.filter((s) => s === "src/p2/m2.ts:Widget").length,
        1,
        `parsed once: ${sent.join(", ")}`,
      );
      if (delayMs !== 0) {
        // The answer came before the delay: only the file it named was parsed.
        await new Promise((r) => setTimeout(r, 200));
        assertEquals(index.indexedFiles(), ["src/p2/m2.ts"]);
        assertEquals(sent, ["src/p2/m2.ts:Widget"]);
      }
      release();
      await index.ready();
      assertEquals(index.indexedFiles().length, MODULES);
    } finally {
      await index.dispose();
      workers.close();
    }
  }
});
