import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { BuildQueue } from "./build_queue.ts";
import type { ParseJob, ParseResult } from "./worker_messages.ts";

/** Workers that answer at once: a job with a needle its file lacks is deferred. */
function fakeWorkers(texts: Record<string, string>, sent: ParseJob[][]) {
  return {
    run(jobs: readonly ParseJob[], onResults: (results: ParseResult[]) => void): Promise<void> {
      sent.push([...jobs]);
      onResults(jobs.map((job) => ({
        relPath: job.relPath,
        status: job.needle && !texts[job.relPath]!.includes(job.needle) ? "deferred" : "parsed",
        hash: "h",
        size: 1,
        mtime: 1,
      })));
      return Promise.resolve();
    },
  };
}

function job(relPath: string): ParseJob {
  return { relPath, absPath: `/p/${relPath}`, known: undefined };
}

Deno.test("BuildQueue: a search's files go first; those lacking its needle are left to the build", async () => {
  const applied: string[] = [];
  const queue = new BuildQueue({
    disposed: () => false,
    apply: (result) => void applied.push(result.relPath),
    report: () => {},
  });
  const texts: Record<string, string> = {};
  queue.reset();
  for (let i = 0; i < 10; i++) {
    const path = i < 5 ? `lib/f${i}.ts` : `src/f${i}.ts`;
    texts[path] = i === 7 ? "class Needle {}" : "const x = 1;";
    queue.enqueue({ job: job(path), stored: undefined, sent: null });
  }
  let finished = false;
  const scan = queue.startScan("Needle", "src", null, () => finished = true);
  assertEquals(scan.total, 5);
  queue.walkEnded();
  const sent: ParseJob[][] = [];
  await queue.pump(fakeWorkers(texts, sent), new AbortController().signal);
  // The scan's five files were sent first, with the needle; then the build's own, without.
  assertEquals(sent[0]!.map((j) => [j.relPath, j.needle]), [
    ["src/f5.ts", "Needle"],
    ["src/f6.ts", "Needle"],
    ["src/f7.ts", "Needle"],
    ["src/f8.ts", "Needle"],
    ["src/f9.ts", "Needle"],
  ]);
  assert(finished, "the scan finished once its files were read");
  assertEquals(applied.slice(0, 1), ["src/f7.ts"], "only the file with the needle indexed first");
  assertEquals(applied.length, 10, "the build indexed the rest");
  assertEquals(sent.slice(1).flat().filter((j) => j.needle !== undefined), []);
  assertEquals(queue.indexed, 10);
  assertEquals(queue.size, 0);
  queue.endScan(scan);
});

Deno.test("BuildQueue: a one-file scan sends its file ahead of the walk, which then skips it", () => {
  const queue = new BuildQueue({ disposed: () => false, apply: () => {}, report: () => {} });
  queue.reset();
  const scan = queue.startScan("x", "src/a.ts", { job: job("src/a.ts") }, () => {});
  assert(scan.file);
  assertEquals(scan.total, 1);
  assert(queue.get("src/a.ts") !== undefined);
  assert(queue.sentAhead("src/a.ts"), "the walk skips it");
  assert(!queue.sentAhead("src/a.ts"), "once");
});

/** The words fakeWorkers' deferred results carry: the text's, as a worker sends them. */
function wordyWorkers(texts: Record<string, string>, sent: ParseJob[][]) {
  const answer = (jobs: readonly ParseJob[], onResults: (results: ParseResult[]) => void) => {
    sent.push([...jobs]);
    onResults(jobs.map((job): ParseResult => {
      const text = texts[job.relPath]!;
      return job.needle && !text.includes(job.needle)
        ? { relPath: job.relPath, status: "deferred", hash: "", size: 0, mtime: 0, words: text }
        : { relPath: job.relPath, status: "parsed", hash: "h", size: 1, mtime: 1 };
    }));
  };
  return {
    run(jobs: readonly ParseJob[], onResults: (results: ParseResult[]) => void): Promise<void> {
      answer(jobs, onResults);
      return Promise.resolve();
    },
    runAhead(jobs: readonly ParseJob[], onResults: (results: ParseResult[]) => void) {
      answer(jobs, onResults);
      return Promise.resolve();
    },
  };
}

Deno.test("BuildQueue: a later scan decides from the words read, and sends its few files ahead", () => {
  const applied: string[] = [];
  const queue = new BuildQueue({
    disposed: () => false,
    apply: (result) => void applied.push(result.relPath),
    report: () => {},
  });
  const texts: Record<string, string> = {};
  queue.reset();
  for (let i = 0; i < 6; i++) {
    texts[`f${i}.ts`] = `Widget${i} Options${i}`;
    queue.enqueue({ job: job(`f${i}.ts`), stored: undefined, sent: null });
  }
  queue.walkEnded();
  const sent: ParseJob[][] = [];
  const workers = wordyWorkers(texts, sent);
  const stop = new AbortController().signal;
  let finished = 0;
  const first = queue.startScan("Widget3", ".", null, () => finished++);
  queue.sendAhead(first, workers, stop);
  assertEquals(sent.flat().map((j) => j.relPath), [
    "f0.ts",
    "f1.ts",
    "f2.ts",
    "f3.ts",
    "f4.ts",
    "f5.ts",
  ]);
  assertEquals(finished, 1);
  assertEquals(applied, ["f3.ts"]);
  assert(queue.readAny);
  queue.endScan(first);

  // Only the file whose words hold the new name is scanned, and it goes at once.
  sent.length = 0;
  const second = queue.startScan("Options5", ".", null, () => finished++);
  assertEquals(second.total, 1);
  queue.sendAhead(second, workers, stop);
  assertEquals(sent.flat().map((j) => [j.relPath, j.needle]), [["f5.ts", "Options5"]]);
  assertEquals(finished, 2);
  queue.endScan(second);

  // A file changed since it was read is read again.
  queue.forgetWords(["f1.ts"]);
  texts["f1.ts"] = "Fresh";
  sent.length = 0;
  const third = queue.startScan("Fresh", ".", null, () => finished++);
  queue.sendAhead(third, workers, stop);
  assertEquals(sent.flat().map((j) => j.relPath), ["f1.ts"]);
  assertEquals(applied, ["f3.ts", "f5.ts", "f1.ts"]);
  queue.endScan(third);
  assertEquals(queue.indexed, 3);
});

Deno.test("BuildQueue: files whose batch sent ahead fails go back to the scan, for the pumps", async () => {
  const queue = new BuildQueue({ disposed: () => false, apply: () => {}, report: () => {} });
  queue.reset();
  const texts: Record<string, string> = { "a.ts": "Needle", "b.ts": "other" };
  for (const path of Object.keys(texts)) {
    queue.enqueue({ job: job(path), stored: undefined, sent: null });
  }
  queue.walkEnded();
  let finished = false;
  const scan = queue.startScan("Needle", ".", null, () => finished = true);
  let failed!: () => void;
  const failing = {
    runAhead: () => new Promise<void>((_, reject) => failed = () => reject(new Error("crash"))),
  };
  queue.sendAhead(scan, failing, new AbortController().signal);
  assertEquals(queue.get("a.ts")!.sent, "Needle", "with a worker");
  failed();
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(queue.get("a.ts")!.sent, null);
  const sent: ParseJob[][] = [];
  await queue.pump(fakeWorkers(texts, sent), new AbortController().signal);
  assertEquals(sent[0]!.map((j) => [j.relPath, j.needle]), [["a.ts", "Needle"], [
    "b.ts",
    "Needle",
  ]]);
  assert(finished);
  queue.endScan(scan);
});

/** A queue with `count` files walked (f0.ts …), its texts, and what it applied. */
function walkedQueue(count: number, texts: Record<string, string>) {
  const applied: string[] = [];
  const pauses: boolean[] = [];
  const queue = new BuildQueue({
    disposed: () => false,
    apply: (result) => void applied.push(result.relPath),
    report: () => {},
    paused: (paused) => void pauses.push(paused),
  });
  queue.reset();
  for (let i = 0; i < count; i++) {
    texts[`f${i}.ts`] ??= `const x${i} = ${i};`;
    queue.enqueue({ job: job(`f${i}.ts`), stored: undefined, sent: null });
  }
  return { queue, applied, pauses };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("BuildQueue: held, the build sends nothing of its own; a one-file scan goes ahead; released, it resumes", async () => {
  const texts: Record<string, string> = { "f3.ts": "class Needle {}" };
  const { queue, applied, pauses } = walkedQueue(100, texts);
  const release = queue.hold();
  assert(queue.paused);
  assertEquals(pauses, [true]);
  queue.walkEnded();
  const sent: ParseJob[][] = [];
  const workers = wordyWorkers(texts, sent);
  const stop = new AbortController();
  let pumped = false;
  const pump = queue.pump(workers, stop.signal).then(() => pumped = true);
  await tick();
  assertEquals(sent, [], "no chunk while held");
  // A question's own file goes ahead, and is indexed.
  let finished = false;
  const scan = queue.startScan("Needle", "f3.ts", { job: null }, () => finished = true);
  queue.sendAhead(scan, workers, stop.signal);
  assertEquals(sent.flat().map((j) => [j.relPath, j.needle]), [["f3.ts", "Needle"]]);
  assert(finished);
  queue.endScan(scan);
  await tick();
  assert(queue.paused, "still held after the scan");
  assertEquals(applied, ["f3.ts"]);
  assert(!pumped);
  // The walk waits while held, and goes on when released.
  let walked = false;
  const walk = queue.resumed(stop.signal).then(() => walked = true);
  await tick();
  assert(!walked);
  release();
  release(); // a second release changes nothing
  assertEquals(pauses, [true, false]);
  await Promise.all([pump, walk]);
  assert(pumped && walked);
  assertEquals(applied.length, 100, "the build indexed every file once released");
  assertEquals(queue.size, 0);
  queue.buildEnded(null);
});

Deno.test("BuildQueue: held, whoever waits for the build, or a scan of a folder, resumes it", async () => {
  const texts: Record<string, string> = {};
  const { queue, pauses } = walkedQueue(10, texts);
  const release = queue.hold();
  assert(queue.paused);
  const unwant = queue.want();
  assert(!queue.paused, "a waiter for the whole build resumes it");
  unwant();
  assert(queue.paused, "paused again when it is gone");
  let finished = false;
  const scan = queue.startScan("x", ".", null, () => finished = true);
  assert(!queue.paused, "a folder's scan needs the walk and the pumps");
  queue.walkEnded();
  const sent: ParseJob[][] = [];
  await queue.pump(wordyWorkers(texts, sent), new AbortController().signal);
  assert(finished);
  queue.endScan(scan);
  assert(queue.paused, "held again once the scan is done");
  queue.buildEnded(null);
  assert(!queue.paused, "the build is done: nothing left to pause");
  assertEquals(pauses, [true, false, true, false, true, false]);
  release();
});

Deno.test("BuildQueue: held, a one-file scan whose batch ahead fails resumes the build for it", async () => {
  const texts: Record<string, string> = { "f1.ts": "Needle" };
  const { queue, pauses } = walkedQueue(3, texts);
  const release = queue.hold();
  queue.walkEnded();
  const sent: ParseJob[][] = [];
  const stop = new AbortController().signal;
  const pump = queue.pump(wordyWorkers(texts, sent), stop);
  let finished = false;
  const scan = queue.startScan("Needle", "f1.ts", { job: null }, () => finished = true);
  let failed!: () => void;
  const failing = {
    runAhead: () => new Promise<void>((_, reject) => failed = () => reject(new Error("crash"))),
  };
  queue.sendAhead(scan, failing, stop);
  assert(queue.paused, "its file is on its way");
  failed();
  await tick();
  assert(finished, "the pumps indexed it");
  assertEquals(sent[0]!.map((j) => [j.relPath, j.needle]), [["f1.ts", "Needle"]]);
  assertEquals(sent.length, 1, "nothing of the build's own");
  // Resumed while its file needed a pump, paused again once it was done.
  assertEquals(pauses, [true, false, true]);
  assert(queue.paused);
  queue.endScan(scan);
  release();
  await pump;
  queue.buildEnded(null);
});
