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
