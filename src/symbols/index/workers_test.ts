import { join } from "node:path";
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import type { ParseJob, ParseResult } from "./worker_messages.ts";
import { ParseWorkers } from "./workers.ts";

/** `count` small TypeScript files in a temporary folder, as parse jobs. */
async function jobs(count: number): Promise<{ dir: string; jobs: ParseJob[] }> {
  const dir = await Deno.makeTempDir({ prefix: "sextant-workers-" });
  const out: ParseJob[] = [];
  for (let i = 0; i < count; i++) {
    const relPath = `m${i}.ts`;
    await Deno.writeTextFile(join(dir, relPath), `export class C${i} {}\n`);
    out.push({ relPath, absPath: join(dir, relPath) });
  }
  return { dir, jobs: out };
}

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
  assert(done(), `waited for ${what}`);
}

Deno.test("parse workers: after a build they stop at once, after a few files they wait", async () => {
  const { dir, jobs: all } = await jobs(12);
  // The idle wait after a few files is long enough never to end within this test.
  const workers = new ParseWorkers({ size: 2, batch: 4, idleMs: 600_000, buildIdleMs: 0 });
  try {
    const results: ParseResult[] = [];
    await workers.run(all, (r) => results.push(...r));
    assertEquals(results.map((r) => r.status), all.map(() => "parsed"));
    assertEquals(results.map((r) => r.relPath).sort(), all.map((j) => j.relPath).sort());
    // 12 files, batches of 4: a build. Both workers stop as soon as it is done.
    await until("the workers to stop after the build", () => workers.running === 0);

    // Two files (fewer than a batch): the workers that parsed them stay for the next edit.
    await workers.run(all.slice(0, 2), () => {});
    const running = workers.running;
    assert(running > 0);
    await new Promise((r) => setTimeout(r, 100));
    assertEquals(workers.running, running, "still there, waiting for more files");

    // The next build stops them again, the waiting one included.
    await workers.run(all, () => {});
    await until("the workers to stop after the second build", () => workers.running === 0);
  } finally {
    workers.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parse workers: a search's batch goes before the build's batches waiting for a worker", async () => {
  const { dir, jobs: all } = await jobs(9);
  const workers = new ParseWorkers({ size: 1, batch: 2, idleMs: 600_000, buildIdleMs: 600_000 });
  try {
    const order: string[] = [];
    // Four batches of the build: the first takes the one worker, three wait.
    const build = workers.run(all.slice(0, 8), (r) => order.push(...r.map((x) => x.relPath)));
    const search = workers.run(
      [{ ...all[8]!, needle: "C8" }],
      (r) => order.push(...r.map((x) => x.relPath)),
    );
    await Promise.all([build, search]);
    assertEquals(order.length, 9);
    assertEquals(order.indexOf("m8.ts"), 2, `after the first batch only: ${order.join(", ")}`);
  } finally {
    workers.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parse workers: held, the build gets no worker until released; searches are not held", async () => {
  const { dir, jobs: all } = await jobs(8);
  const workers = new ParseWorkers({ size: 2, batch: 1, idleMs: 600_000, buildIdleMs: 600_000 });
  try {
    const release = workers.hold();
    const built: ParseResult[] = [];
    let buildDone = false;
    const build = workers.run(all, (r) => built.push(...r)).then(() => buildDone = true);
    // A search while held gets a worker, and ends while the build has parsed nothing.
    const searched: ParseResult[] = [];
    await workers.run(all.map((j) => ({ ...j, needle: "C" })), (r) => searched.push(...r));
    assertEquals(searched.length, 8);
    const ahead: ParseResult[] = [];
    await workers.runAhead([{ ...all[0]!, needle: "C0" }], (r) => ahead.push(...r));
    assertEquals(ahead.map((r) => r.status), ["parsed"]);
    await new Promise((r) => setTimeout(r, 100));
    assertEquals(built.length, 0, "no batch of the build while held");
    assert(!buildDone);
    release();
    release(); // a second release changes nothing
    await build;
    assertEquals(built.length, 8, "the build resumes when released");
  } finally {
    workers.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parse workers: a batch sent ahead is not queued behind the waiting ones", async () => {
  const { dir, jobs: all } = await jobs(201);
  const workers = new ParseWorkers({ size: 1, batch: 8, buildIdleMs: 0 });
  try {
    const done: string[] = [];
    // 25 batches for one worker: 24 of them wait for it.
    const build = workers.run(all.slice(1), () => {}).then(() => done.push("build"));
    // The worker is busy now: the batch goes to it at once and interleaves with its batch.
    const results: ParseResult[] = [];
    const ahead = workers.runAhead([all[0]!], (r) => results.push(...r))
      .then(() => done.push("ahead"));
    await Promise.all([build, ahead]);
    assertEquals(done, ["ahead", "build"]);
    assertEquals(results.map((r) => [r.relPath, r.status]), [["m0.ts", "parsed"]]);
    await until("the worker to stop after both", () => workers.running === 0);
  } finally {
    workers.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parse workers: held, a batch on a worker ends, and one sent ahead goes beside it", async () => {
  const { dir, jobs: all } = await jobs(201);
  const workers = new ParseWorkers({ size: 1, batch: 50, idleMs: 600_000, buildIdleMs: 0 });
  try {
    const done: string[] = [];
    const results: ParseResult[] = [];
    // Four batches for the one worker: the first is on it when the hold comes, three wait.
    const build = workers.run(all.slice(1), (r) => results.push(...r))
      .then(() => done.push("build"));
    const release = workers.hold();
    // The worker is busy: the batch sent ahead goes beside the build's batch, not behind it.
    const ahead: ParseResult[] = [];
    await workers.runAhead([{ ...all[0]!, needle: "C0" }], (r) => ahead.push(...r))
      .then(() => done.push("ahead"));
    assertEquals(ahead.map((r) => [r.relPath, r.status]), [["m0.ts", "parsed"]]);
    // The batch that was on the worker ends; the waiting ones stay held.
    await until("the batch on the worker to end", () => results.length >= 50);
    await new Promise((r) => setTimeout(r, 100));
    assertEquals(results.length, 50, "only the batch that was on the worker");
    release();
    await build;
    assertEquals(done, ["ahead", "build"]);
    assertEquals(results.length, 200);
    await until("the worker to stop after the build", () => workers.running === 0);
  } finally {
    workers.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parse workers: narrowed, one worker parses everything; widened, the pool grows to its size", async () => {
  const { dir, jobs: all } = await jobs(8);
  const workers = new ParseWorkers({ size: 2, batch: 1, idleMs: 600_000, buildIdleMs: 600_000 });
  try {
    let most = 0;
    const count = () => most = Math.max(most, workers.running);
    workers.widen(false);
    const narrow: ParseResult[] = [];
    await workers.run(all, (r) => {
      narrow.push(...r);
      count();
    });
    assertEquals(narrow.length, 8);
    assertEquals(most, 1, "one worker while narrowed");
    // Eight batches of one file: the second worker starts for the ones waiting.
    workers.widen(true);
    most = 0;
    await workers.run(all, count);
    assertEquals(most, 2, "both workers once widened");
  } finally {
    workers.close();
    await Deno.remove(dir, { recursive: true });
  }
});
