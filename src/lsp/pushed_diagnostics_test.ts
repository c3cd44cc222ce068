import { assertEquals } from "../../tests/helpers/assert.ts";
import { DiagnosticsStore } from "./pushed_diagnostics.ts";

const URI = "file:///p/deploy.yaml";
const WAIT = { timeoutMs: 30_000 };

Deno.test("answered: content sent and not yet published for, until a publish comes", () => {
  const store = new DiagnosticsStore();
  assertEquals(store.answered(URI), true, "nothing sent");
  store.sent(URI);
  assertEquals(store.answered(URI), false);
  store.publish(URI, null, []);
  assertEquals(store.answered(URI), true);
  store.sent(URI);
  assertEquals(store.answered(URI), false, "changed since");
});

Deno.test("waitFor, no version, settling: a late publish of the old content is replaced by the new one", async () => {
  const store = new DiagnosticsStore();
  store.sent(URI); // opened: its publish is on its way
  const serial = store.serial(URI);
  store.sent(URI); // changed before it came
  const waiting = store.waitFor(URI, { version: 2, afterSerial: serial, settleMs: 50 }, WAIT);
  store.publish(URI, null, []); // the old content's: no error
  await new Promise((r) => setTimeout(r, 5));
  store.publish(URI, null, [{ message: "Incorrect type." }]); // the new content's
  assertEquals((await waiting)?.diagnostics, [{ message: "Incorrect type." }]);
});

Deno.test("waitFor, no version, settling: a single publish is the answer once none follows", async () => {
  const store = new DiagnosticsStore();
  const serial = store.serial(URI);
  const waiting = store.waitFor(URI, { version: 2, afterSerial: serial, settleMs: 20 }, WAIT);
  store.publish(URI, null, [{ message: "only" }]);
  assertEquals((await waiting)?.diagnostics, [{ message: "only" }]);
});

Deno.test("waitFor: a versioned publish answers at once, settling or not", async () => {
  const store = new DiagnosticsStore();
  const serial = store.serial(URI);
  const waiting = store.waitFor(URI, { version: 2, afterSerial: serial, settleMs: 60_000 }, WAIT);
  store.publish(URI, 1, [{ message: "old" }]);
  store.publish(URI, 2, [{ message: "new" }]);
  assertEquals((await waiting)?.diagnostics, [{ message: "new" }]);
});
