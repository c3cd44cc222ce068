/** Pull diagnostics (pull_diagnostics.ts) with a scripted server: what "unchanged" means. */
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { ResponseError } from "../deps.ts";
import { PULL_RETRIES, PullDiagnostics, type Send } from "./pull_diagnostics.ts";

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

/** A server failing the first requests with `errors`, then answering `report`. */
function cancelling(
  errors: ResponseError<unknown>[],
  report: unknown,
): { send: Send; asked: () => number } {
  let asked = 0;
  const send = <R>() => {
    asked++;
    const error = errors.shift();
    return error ? Promise.reject(error) : Promise.resolve(report as R);
  };
  return { send, asked: () => asked };
}
const noDelay = () => Promise.resolve();

Deno.test("PullDiagnostics: a pull the server cancelled is asked again", async () => {
  const { send, asked } = cancelling([
    new ResponseError(-32802, "server cancelled the request", { retriggerRequest: true }),
    new ResponseError(-32801, "content modified"),
  ], { kind: "full", items: [error] });
  assertEquals(await new PullDiagnostics().pull(send, "file:///a.rs", noDelay), [error]);
  assertEquals(asked(), 3);
});

Deno.test("PullDiagnostics: a cancelled pull is not asked again when the server says not to, nor past the retries", async () => {
  const told = cancelling([
    new ResponseError(-32802, "cancelled", { retriggerRequest: false }),
  ], { kind: "full", items: [] });
  await assertRejects(
    () => new PullDiagnostics().pull(told.send, "file:///a.rs", noDelay),
    "cancelled",
  );
  assertEquals(told.asked(), 1);
  const always = cancelling(
    Array.from({ length: PULL_RETRIES + 1 }, () => new ResponseError(-32802, "busy")),
    { kind: "full", items: [] },
  );
  await assertRejects(
    () => new PullDiagnostics().pull(always.send, "file:///a.rs", noDelay),
    "busy",
  );
  assertEquals(always.asked(), PULL_RETRIES + 1);
  const other = cancelling([new ResponseError(-32603, "internal")], { kind: "full", items: [] });
  await assertRejects(
    () => new PullDiagnostics().pull(other.send, "file:///a.rs", noDelay),
    "internal",
  );
  assertEquals(other.asked(), 1);
});
