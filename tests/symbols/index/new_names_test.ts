/**
 * New names while the declaration index builds: the first search reads every file not indexed
 * yet, and keeps the words of those it does not parse; a later search with a new name reads no
 * file again, parses only the files whose words contain the name, and answers as the built index
 * does. A file changed on disk after its words were read is read again.
 *
 * The build's own chunks (jobs without a needle) are held until the end, so every search here
 * runs while the build is under way, on real parse workers.
 */
import { join } from "node:path";
import { assertEquals } from "../../helpers/assert.ts";
import { tempDir, writeTree } from "../../helpers/tool_ctx.ts";
import { loadSettings } from "../../../src/config/load.ts";
import { Project } from "../../../src/project/project.ts";
import { DeclarationIndex, ParseWorkers } from "../../../src/symbols/index/mod.ts";
import type { ParseJob } from "../../../src/symbols/index/worker_messages.ts";

/**
 * More than the build's pumps hold at once (declaration_index.ts: PUMPS = 4 chunks of
 * build_queue.ts: BUILD_CHUNK = 64 files), so some wait unsent; the test waits for the four chunks
 * to be held.
 */
const MODULES = 400;

function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < MODULES; i++) {
    files[`src/m${i}.ts`] = `export class Widget${i} {}\nexport const Options${i} = ${i};\n`;
  }
  return files;
}

Deno.test({
  name: "a new name during the build reads no file again and parses only those naming it",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, tree());
  const project = await Project.open(
    dir.path,
    await loadSettings({ projectRoot: dir.path, globalFile: null }),
  );
  const workers = new ParseWorkers({ size: 2 });
  // The build's own chunks wait until the end; what searches send is recorded.
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const searched: ParseJob[] = [];
  const inBuild = new Set<string>();
  let heldChunks = 0;
  const run = workers.run.bind(workers);
  workers.run = async (jobs, onResults, signal) => {
    if (jobs.every((j) => j.needle === undefined)) {
      for (const j of jobs) inBuild.add(j.relPath);
      heldChunks++;
      await held;
    } else searched.push(...jobs.filter((j) => j.needle !== undefined));
    return await run(jobs, onResults, signal);
  };
  const runAhead = workers.runAhead.bind(workers);
  workers.runAhead = async (jobs, onResults, signal) => {
    searched.push(...jobs);
    return await runAhead(jobs, onResults, signal);
  };
  const index = new DeclarationIndex(project, { workers, persist: false });
  const sent = () => searched.splice(0).map((j) => j.relPath).sort();
  try {
    // The first search reads every file (`Widget1` is named in m1 and m10–m19).
    assertEquals(await index.prepareFor("Widget1"), true);
    assertEquals(sent().length, MODULES);
    assertEquals(index.built, false);
    assertEquals(index.candidates("Widget1", { substring: true }).length, 111);

    // A new name: only the one file naming it is sent, and it is indexed (sent ahead even when
    // it is in one of the build's chunks, which the search does not wait for).
    while (heldChunks < 4) await new Promise((r) => setTimeout(r, 10));
    for (const i of [42, 321]) {
      assertEquals(await index.prepareFor(`Options${i}`), true);
      assertEquals(sent(), [`src/m${i}.ts`]);
      assertEquals(index.candidates(`Options${i}`), [`src/m${i}.ts`]);
    }

    // A name no file holds: nothing is sent.
    assertEquals(await index.prepareFor("Nowhere"), true);
    assertEquals(sent(), []);

    // A file changed after its words were read is read again, and its new name found (one the
    // build has not sent yet: a file changed while in a build's chunk waits for the build).
    const changed = [...Array(MODULES).keys()].map((i) => `src/m${i}.ts`)
      .find((f) => !inBuild.has(f) && !f.includes("m1") && f !== "src/m42.ts")!;
    await Deno.writeTextFile(
      join(dir.path, changed),
      "export class Changed {}\nexport function fresh() {}\n",
    );
    assertEquals(await index.prepareFor("fresh"), true);
    assertEquals(sent(), [changed]);
    assertEquals(index.candidates("fresh"), [changed]);
    assertEquals(index.built, false);

    // The built index agrees with every answer given during the build.
    release();
    await index.ready();
    assertEquals(index.candidates("Widget1", { substring: true }).length, 111);
    assertEquals(index.candidates("Options42"), ["src/m42.ts"]);
    assertEquals(index.candidates("Options321"), ["src/m321.ts"]);
    assertEquals(index.candidates("Nowhere"), []);
    assertEquals(index.candidates("fresh"), [changed]);
    assertEquals(index.stats().files, MODULES);
  } finally {
    release();
    await index.dispose();
    workers.close();
  }
});
