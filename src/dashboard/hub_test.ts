import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { DEFAULT_SETTINGS } from "../config/schema.ts";
import { Session } from "../session/session.ts";
import { callTool } from "../tools/call.ts";
import { defineTool } from "../tools/tool.ts";
import { DashboardHub, notAnalysedLines, summarizeArgs } from "./hub.ts";

Deno.test("summarizeArgs names each argument with its value cut short", () => {
  const long = "x".repeat(200);
  const summary = summarizeArgs({ relative_path: "src/a.ts", depth: 2, body: long, list: [1] });
  assert(summary.startsWith('relative_path="src/a.ts" depth=2 body="xxx'), summary);
  assert(summary.includes("…") && summary.length < 160, summary);
  assert(summary.endsWith("list=[…]"), summary);
});

Deno.test("notAnalysedLines takes the answer's not-analysed section", () => {
  const text = "3 references\nNot analysed: 2 occurrence(s) of 'Core' the language server " +
    "neither listed nor explained:\n- a.ts:3: Core (outside tsconfig)\n- b.ts:9: Core (x)\n\nmore";
  assertEquals(notAnalysedLines(text).length, 3);
  assertEquals(notAnalysedLines("all found"), []);
});

Deno.test("the hub records and sends calls only while a page listens", () => {
  const hub = new DashboardHub();
  const observer = hub.callObserver(1);
  assertEquals(observer.watching, false);
  const events: Array<[string, string]> = [];
  const unlisten = hub.listen((event, json) => events.push([event, json]));
  assertEquals(observer.watching, true);
  const call = observer.callStarted("read_file", { relative_path: "a.ts" });
  assertEquals(hub.calls().map((c) => c.ms), [null]);
  call.finished({ text: "Error: no file\nmore", isError: true });
  const [finished] = hub.calls();
  assertEquals(finished?.error, "Error: no file");
  assertEquals(finished?.size, "Error: no file\nmore".length);
  assertEquals(events.map(([event]) => event), ["call"]);
  assert(hub.takeStatsDirty() && !hub.takeStatsDirty());
  // The occurrences a references answer could not analyse follow it as a note of its own.
  observer.callStarted("find_referencing_symbols", {}).finished({
    text: "[]",
    isError: false,
    notes: ["Not analysed: 1 occurrence(s) of 'Core' ...:\n- src/a.ts:3: Core (outside)"],
  });
  assertEquals(hub.calls()[1]?.notAnalysed.length, 2);
  unlisten();
  assertEquals(observer.watching, false);
  assertEquals(hub.calls(), []);
});

Deno.test("a running call is announced once, and the page can cancel it", () => {
  const hub = new DashboardHub();
  const events: string[] = [];
  hub.listen((_event, json) => events.push(json));
  const call = hub.callObserver(7).callStarted("find_symbol", {});
  hub.announceRunning();
  hub.announceRunning();
  assertEquals(events.length, 1);
  const id = hub.calls()[0]!.id;
  assertEquals(call.signal.aborted, false);
  assert(hub.cancelCall(id));
  assert(call.signal.aborted);
  call.finished({ text: "Error: find_symbol was cancelled.", isError: true });
  assertEquals(hub.cancelCall(id), false);
});

Deno.test("the hub keeps at most an hour of calls, and no more than its bound", () => {
  const hub = new DashboardHub();
  hub.listen(() => {});
  const observer = hub.callObserver(1);
  for (let i = 0; i < 12_000; i++) {
    observer.callStarted("t", {}).finished({ text: "", isError: false });
  }
  const calls = hub.calls();
  assertEquals(calls.length, 10_000);
  assertEquals(calls.at(-1)!.id - calls[0]!.id, 9_999);
});

Deno.test("sessions come and go, and end through the hub", async () => {
  const hub = new DashboardHub();
  let closed = false;
  hub.sessionOpened({
    id: 3,
    since: new Date(0),
    describe: () => ({ client: "c 1", project: "/p", context: "agent", modes: ["editing"] }),
    close: () => {
      closed = true;
      hub.sessionClosed(3);
      return Promise.resolve();
    },
  });
  assertEquals(hub.sessionViews().map((s) => [s.id, s.client, s.project]), [[3, "c 1", "/p"]]);
  assert(await hub.endSession(3));
  assert(closed);
  assertEquals(hub.sessionViews(), []);
  assertEquals(await hub.endSession(3), false);
});

Deno.test("a call cancelled from the page answers that it was cancelled", async () => {
  const hub = new DashboardHub();
  hub.listen(() => {});
  // A tool that works until its call is cancelled: the pipeline's own handling is under test.
  const waits = defineTool({
    name: "waits",
    description: "Waits for cancellation.",
    params: {},
    readOnly: true,
    handler: (_args, ctx) =>
      new Promise<string>((resolve) =>
        ctx.signal.addEventListener("abort", () => resolve("stopped"))
      ),
  });
  const session = new Session({ settings: structuredClone(DEFAULT_SETTINGS), tools: [waits] });
  session.callObserver = hub.callObserver(1);
  const answer = callTool(session, waits, {});
  const running = hub.calls()[0]!;
  assertEquals(running.tool, "waits");
  assert(hub.cancelCall(running.id));
  const result = await answer;
  assertEquals(result, { text: "Error: waits was cancelled.", isError: true });
  assertEquals(hub.calls()[0]!.error, "Error: waits was cancelled.");
  await session.dispose();
});
