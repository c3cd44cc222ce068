import { assertEquals } from "../../tests/helpers/assert.ts";
import { LateReports } from "./late_reports.ts";

Deno.test("LateReports: notes come in the order their edits answered, once, without the empty", async () => {
  const reports = new LateReports();
  assertEquals(await reports.take(), []);
  reports.add(Promise.resolve("first"));
  reports.add(Promise.resolve(null));
  reports.add(Promise.resolve("third"));
  assertEquals(reports.pending, 3);
  assertEquals(await reports.take(), ["first", "third"]);
  assertEquals(reports.pending, 0);
  assertEquals(await reports.take(), []);
});

Deno.test("LateReports: ready waits for every pending report", async () => {
  const reports = new LateReports();
  let finish = (_: string) => {};
  reports.add(new Promise<string>((resolve) => finish = resolve));
  let ready = false;
  const waiting = reports.ready().then(() => ready = true);
  // A macrotask later: a ready() that did not wait would have resolved by now.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(ready, false);
  finish("done");
  await waiting;
  assertEquals(ready, true);
  assertEquals(await reports.take(), ["done"]);
});

Deno.test("LateReports: counts the calls in flight, nested ones too", () => {
  const reports = new LateReports();
  assertEquals(reports.callsInFlight, 0);
  reports.callStarted();
  reports.callStarted();
  assertEquals(reports.callsInFlight, 2);
  reports.callEnded();
  reports.callEnded();
  assertEquals(reports.callsInFlight, 0);
});
