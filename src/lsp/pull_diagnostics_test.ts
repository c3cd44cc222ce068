/** Pull diagnostics (pull_diagnostics.ts) with a scripted server: what "unchanged" means. */
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { PullDiagnostics, type Send } from "./pull_diagnostics.ts";

const error = {
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  severity: 1,
  message: "Undefined name",
};

/** A server answering each request with the next of `reports`, recording the requests. */
function server(reports: unknown[]): { send: Send; sent: unknown[] } {
  const sent: unknown[] = [];
  const send = <R>(_method: string, params: unknown) => {
    sent.push(params);
    return Promise.resolve(reports.shift() as R);
  };
  return { send, sent };
}

Deno.test("PullDiagnostics: an unchanged report reuses the previous one's items", async () => {
  const { send, sent } = server([
    { kind: "full", resultId: "3", items: [error] },
    { kind: "unchanged", resultId: "3" },
  ]);
  const pull = new PullDiagnostics();
  assertEquals(await pull.pull(send, "file:///a.py"), [error]);
  assertEquals(await pull.pull(send, "file:///a.py"), [error]);
  assertEquals(sent[1], { textDocument: { uri: "file:///a.py" }, previousResultId: "3" });
});

Deno.test("PullDiagnostics: unchanged with no previous report is an error, not an empty list", async () => {
  const { send } = server([{ kind: "unchanged" }, { kind: "unchanged" }]);
  const pull = new PullDiagnostics();
  await assertRejects(() => pull.pull(send, "file:///b.py"), 'answered "unchanged"');
  // Also after the previous report was forgotten (the file was edited or closed).
  const other = server([{ kind: "full", resultId: "1", items: [] }, { kind: "unchanged" }]);
  await pull.pull(other.send, "file:///c.py");
  pull.forget("file:///c.py");
  await assertRejects(() => pull.pull(other.send, "file:///c.py"), "unchanged");
});
