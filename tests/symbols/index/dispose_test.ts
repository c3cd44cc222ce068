/**
 * A project closed while its declaration index builds: the build stops, and nothing it left
 * behind rejects unhandled (in the shared service that would end the process, and every session
 * with it).
 */
import { assert } from "../../helpers/assert.ts";
import { tempDir, writeTree } from "../../helpers/tool_ctx.ts";
import { loadSettings } from "../../../src/config/load.ts";
import { Project } from "../../../src/project/project.ts";
import { DeclarationIndex, ParseWorkers } from "../../../src/symbols/index/mod.ts";

Deno.test("the declaration index disposed in the middle of its build ends cleanly", async () => {
  await using dir = await tempDir();
  const files: Record<string, string> = {};
  for (let i = 0; i < 8_000; i++) {
    files[`src/p${i % 400}/m${i}.ts`] =
      `export class C${i} {\n  run(): number {\n    return ${i};\n  }\n}\n`;
  }
  await writeTree(dir.path, files);
  const project = Project.open(
    dir.path,
    await loadSettings({ projectRoot: dir.path, globalFile: null }),
  );
  let unhandled: unknown = null;
  const onUnhandled = (event: PromiseRejectionEvent) => {
    unhandled = event.reason;
    event.preventDefault();
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  try {
    // While the build walks the tree, the project goes away: at once, and a little later.
    for (const delayMs of [0, 5, 20]) {
      const workers = new ParseWorkers({ size: 2, idleMs: 60_000 });
      const index = new DeclarationIndex(project, { workers, watch: false, persist: false });
      const ready = index.ready().then(() => "built", (error) => error);
      await settledWithin(ready, delayMs);
      await index.dispose();
      const outcome = await ready;
      workers.close();
      // Give rejections left behind a turn of the event loop to surface.
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert(unhandled === null, `disposed after ${delayMs} ms: unhandled ${unhandled}`);
      assert(outcome === "built" || outcome instanceof Error, `the build ended: ${outcome}`);
    }
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
});

/** Whether `promise` settles within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms)),
  ]);
  clearTimeout(timer);
  return settled;
}
