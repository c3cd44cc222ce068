import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { BASELINE_WAIT_MS, EditChecks, REPORT_WAIT_MS } from "./edit_checks.ts";
import type { FileErrors } from "./error_identity.ts";

const TEXT = "export const x: number = 'a';\n";
const ERRORS: FileErrors = {
  text: TEXT,
  errors: [{ line: 0, message: "Bad.", exact: "Bad.\u0000x", loose: "\u0000Bad." }],
};

Deno.test("EditChecks: a file's errors serve again for the same text until the next write", () => {
  const checks = new EditChecks();
  checks.rememberErrors("a.ts", TEXT, checks.generation, ERRORS);
  assertEquals(checks.reusableErrors("a.ts", TEXT), ERRORS);
  assertEquals(checks.reusableErrors("a.ts", TEXT + "// changed\n"), null);
  assertEquals(checks.reusableErrors("b.ts", TEXT), null);
  checks.noteWrite();
  assertEquals(checks.reusableErrors("a.ts", TEXT), null);
});

Deno.test("EditChecks: errors asked for before a write are stale once it is noted", () => {
  const checks = new EditChecks();
  const asked = checks.generation;
  checks.noteWrite(); // another write lands while the server answers
  checks.rememberErrors("a.ts", TEXT, asked, ERRORS);
  assertEquals(checks.reusableErrors("a.ts", TEXT), null);
});

Deno.test("EditChecks: each project has its own record (a write elsewhere stales nothing)", () => {
  const one = new EditChecks();
  const other = new EditChecks();
  one.rememberErrors("a.ts", TEXT, one.generation, ERRORS);
  other.noteWrite();
  assertEquals(one.reusableErrors("a.ts", TEXT), ERRORS);
  assertEquals(other.reusableErrors("a.ts", TEXT), null);
});

Deno.test("EditChecks: importers serve the next write of the same files unless it moved them", () => {
  const checks = new EditChecks();
  checks.rememberImporters("src/b.ts", ["src/a.ts"], performance.now());
  assertEquals(checks.reusableImporters("src/b.ts"), ["src/a.ts"]);
  assertEquals(checks.reusableImporters("src/c.ts"), null);
  // The write of src/b.ts itself: who imports it is still known after it.
  checks.noteWrite();
  assertEquals(checks.reusableImporters("src/b.ts"), null);
  checks.importersAfterWrite("src/b.ts", false);
  assertEquals(checks.reusableImporters("src/b.ts"), ["src/a.ts"]);
  // A move forgets them.
  checks.noteWrite();
  checks.importersAfterWrite("src/b.ts", true);
  assertEquals(checks.reusableImporters("src/b.ts"), null);
});

Deno.test("EditChecks: the waits default to the constants; set ones are restored in order", () => {
  const checks = new EditChecks();
  assertEquals(checks.waits, { reportMs: REPORT_WAIT_MS, baselineMs: BASELINE_WAIT_MS });
  const restoreOuter = checks.setWaits({ reportMs: 60_000 });
  const restoreInner = checks.setWaits({ baselineMs: 0 });
  assertEquals(checks.waits, { reportMs: 60_000, baselineMs: 0 });
  restoreInner();
  assertEquals(checks.waits, { reportMs: 60_000, baselineMs: BASELINE_WAIT_MS });
  restoreOuter();
  assertEquals(checks.waits, { reportMs: REPORT_WAIT_MS, baselineMs: BASELINE_WAIT_MS });
});

Deno.test("EditChecks: settled waits for the checks running, and only for them", async () => {
  const checks = new EditChecks();
  await checks.settled(); // none running
  let finish = () => {};
  checks.track(new Promise<void>((resolve) => finish = resolve));
  let settled = false;
  const waiting = checks.settled().then(() => settled = true);
  // A macrotask later: a settled() that did not wait would have resolved by now.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(settled, false);
  finish();
  await waiting;
  assert(settled);
  await checks.settled(); // the finished check is no longer tracked
});
