import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { HOLD_TTL_MS, ProgressTracker } from "./progress.ts";

Deno.test("a server token begun and never ended keeps the server busy", () => {
  const p = new ProgressTracker();
  p.create("t1");
  p.progress("t1", { kind: "begin", title: "" });
  p.progress("t1", { kind: "report", message: "1 file to analyze" });
  assert(p.busy);
  assertEquals(p.describe(), "working: 1 file to analyze");
});

Deno.test("ignoreServerProgress: checking progress left open never makes the server busy", async () => {
  const p = new ProgressTracker();
  p.hold("startup", "loading the project");
  // Progress already open when the server is marked is forgotten; the hold still counts.
  p.create("early");
  p.progress("early", { kind: "begin", title: "" });
  p.ignoreServerProgress();
  assert(p.busy);
  p.release("startup");
  assertEquals(p.busy, false);
  const epoch = p.epoch;
  // pyright's "N files to analyze", never ended.
  p.create("t1");
  p.progress("t1", { kind: "begin", title: "" });
  p.progress("t1", { kind: "report", message: "1 file to analyze" });
  assertEquals(p.busy, false);
  assertEquals(p.epoch, epoch, "checking is not loading: answers are not asked again");
  await p.whenIdle({ timeoutMs: 60_000, onTimeout: () => new Error("stuck") });
  // A hold (the project enumerated again) still makes queries wait.
  p.hold("startup", "loading the project");
  assert(p.busy);
  assert(p.epoch > epoch);
});

Deno.test("a hold whose signal never comes is forgotten after HOLD_TTL_MS", async () => {
  let now = 1_000;
  const p = new ProgressTracker({ now: () => now });
  p.hold("startup", "loading the project");
  now += HOLD_TTL_MS - 1;
  assert(p.busy);
  now += 2;
  assertEquals(p.busy, false);
  await p.whenIdle({ timeoutMs: 60_000, onTimeout: () => new Error("stuck") });
  // A token the server begun stays until its end, however long (loading may be long).
  p.create("t1");
  p.progress("t1", { kind: "begin", title: "Indexing" });
  now += 10 * HOLD_TTL_MS;
  assert(p.busy);
  p.progress("t1", { kind: "end" });
  assertEquals(p.busy, false);
});
