/**
 * Unit tests of document sync (documents.ts) with a recording notifier instead of a server:
 * transient opens are closed when their query ends (and only then), outside changes are seen by
 * the next sync although closed documents are re-checked only now and then, versions never
 * repeat; and of the bounded diagnostics store. No sleeps: every step is driven by the calls.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { tempDir } from "../../tests/helpers/tool_ctx.ts";
import { DocumentSync, MAX_OPEN } from "./documents.ts";
import { DiagnosticsStore } from "./pushed_diagnostics.ts";

interface Sent {
  method: string;
  params: {
    textDocument?: { uri: string; version?: number; text?: string };
    contentChanges?: Array<{ text: string }>;
    changes?: Array<{ uri: string; type: number }>;
  };
}

async function fixture(files: Record<string, string>) {
  const dir = await tempDir("sextant-docs-");
  for (const [rel, text] of Object.entries(files)) {
    await Deno.writeTextFile(join(dir.path, rel), text);
  }
  const sent: Sent[] = [];
  const closed: string[] = [];
  const docs = new DocumentSync({
    root: dir.path,
    server: {
      notify: (method, params) => {
        sent.push({ method, params: params as Sent["params"] });
        return Promise.resolve();
      },
    },
    languageId: () => "typescript",
    onClose: (uri) => closed.push(uri),
  });
  const name = (uri: string | undefined) => uri?.slice(uri.lastIndexOf("/") + 1);
  /** Methods sent since the last call, with the file name: "didOpen a.ts". */
  const take = () =>
    sent.splice(0).map((s) => {
      const method = s.method.replace(/^.*\//, "");
      if (s.params.changes) {
        return `${method} ${s.params.changes.map((c) => `${name(c.uri)}:${c.type}`).join(",")}`;
      }
      return `${method} ${name(s.params.textDocument?.uri)}`;
    });
  return { dir, docs, sent, closed, take, path: (rel: string) => join(dir.path, rel) };
}

Deno.test("documents: a transient open is closed and forgotten when its query ends", async () => {
  const fx = await fixture({ "a.ts": "export const a = 1;\n", "b.ts": "export const b = 2;\n" });
  await using _ = fx.dir;
  const lease = await fx.docs.sync(["a.ts"], { transient: true });
  assertEquals(fx.take(), ["didOpen a.ts"]);
  assertEquals(fx.docs.openDocuments(), ["a.ts"]);
  await lease.release();
  assertEquals(fx.take(), ["didClose a.ts"]);
  assertEquals(fx.docs.openDocuments(), []);
  assertEquals(fx.docs.size, 0, "a transient document is forgotten, not kept as closed");
  assertEquals(fx.closed, [fx.docs.uriOf("a.ts")]);
  await lease.release(); // twice is harmless
  assertEquals(fx.take(), []);
});

Deno.test("documents: transient queries never close what another query still needs", async () => {
  const fx = await fixture({ "a.ts": "export const a = 1;\n", "b.ts": "export const b = 2;\n" });
  await using _ = fx.dir;
  // Open already (a lasting query): a transient query leaves it open.
  await (await fx.docs.sync(["a.ts"])).release();
  await (await fx.docs.sync(["a.ts"], { transient: true })).release();
  assertEquals(fx.take(), ["didOpen a.ts"]);
  assertEquals(fx.docs.openDocuments(), ["a.ts"]);

  // Two transient queries on one file in flight: closed after the second ends.
  const first = await fx.docs.sync(["b.ts"], { transient: true });
  const second = await fx.docs.sync(["b.ts"], { transient: true });
  await first.release();
  assert(fx.docs.openDocuments().includes("b.ts"), "still used by the second query");
  await second.release();
  assertEquals(fx.take(), ["didOpen b.ts", "didClose b.ts"]);

  // A lasting query joins a transient one: the document stays open afterwards.
  const transient = await fx.docs.sync(["b.ts"], { transient: true });
  await (await fx.docs.sync(["b.ts"])).release();
  await transient.release();
  assertEquals(fx.take(), ["didOpen b.ts"]);
  assertEquals(fx.docs.openDocuments().sort(), ["a.ts", "b.ts"]);
});

Deno.test("documents: a failed sync closes the transient documents it opened", async () => {
  const fx = await fixture({ "a.ts": "export const a = 1;\n" });
  await using _ = fx.dir;
  let message = "";
  try {
    await fx.docs.sync(["a.ts", "missing.ts"], { transient: true });
  } catch (error) {
    message = (error as Error).message;
  }
  assertEquals(message, "File 'missing.ts' does not exist.");
  assertEquals(fx.take(), ["didOpen a.ts", "didClose a.ts"]);
  assertEquals(fx.docs.size, 0);
});

Deno.test("documents: outside changes to open documents are seen by the very next sync", async () => {
  const fx = await fixture({
    "a.ts": "export const a = 1;\n",
    "b.ts": "export const b = 2;\n",
    "c.ts": "export const c = 3;\n",
  });
  await using _ = fx.dir;
  await (await fx.docs.sync(["a.ts"])).release();
  await (await fx.docs.sync(["b.ts"])).release();
  assertEquals(fx.take(), ["didOpen a.ts", "didOpen b.ts"]);
  // Many syncs in a row (closed documents are not re-checked on each): open ones still are.
  for (let i = 0; i < 5; i++) {
    await Deno.writeTextFile(fx.path("a.ts"), `export const a = ${i + 10};\n`);
    await (await fx.docs.sync(["c.ts"], { transient: true })).release();
    const log = fx.take();
    assertEquals(log.filter((l) => !l.endsWith("c.ts")), [
      "didChange a.ts",
      "didChangeWatchedFiles a.ts:2",
    ]);
  }
  // Same size, written within mtime's resolution: compared by content, still seen.
  await Deno.writeTextFile(fx.path("b.ts"), "export const b = 7;\n");
  await (await fx.docs.sync([])).release();
  const changed = fx.sent.find((s) => s.method === "textDocument/didChange");
  assertEquals(changed?.params.contentChanges, [{ text: "export const b = 7;\n" }]);
  fx.take();
  // Deleted outside: closed and announced.
  await Deno.remove(fx.path("b.ts"));
  await (await fx.docs.sync([])).release();
  assertEquals(fx.take(), ["didClose b.ts", "didChangeWatchedFiles b.ts:3"]);
  assertEquals(fx.docs.openDocuments(), ["a.ts"]);
});

Deno.test("documents: a check right after the open compares with the content the open sent", async () => {
  const fx = await fixture({ "a.ts": "export const a = 1;\n" });
  await using _ = fx.dir;
  // The open's hash is computed after its didOpen went: the checks below come before it is done.
  await (await fx.docs.sync(["a.ts"])).release();
  await (await fx.docs.sync(["a.ts"])).release();
  assertEquals(fx.take(), ["didOpen a.ts"], "the same content: nothing sent again");
  await (await fx.docs.sync(["a.ts"])).release();
  await Deno.writeTextFile(fx.path("a.ts"), "export const a = 2;\n");
  await (await fx.docs.sync(["a.ts"])).release();
  assertEquals(fx.take(), ["didChange a.ts", "didChangeWatchedFiles a.ts:2"]);
  await (await fx.docs.sync(["a.ts"])).release();
  assertEquals(fx.take(), [], "the change's content is the one compared next");
});

Deno.test("documents: an open document is compared by size and mtime once its mtime is settled", async () => {
  const fx = await fixture({ "a.ts": "export const a = 1;\n", "b.ts": "export const b = 2;\n" });
  await using _ = fx.dir;
  const hourAgo = new Date(Date.now() - 3_600_000);
  Deno.utimeSync(fx.path("a.ts"), hourAgo, hourAgo);
  await (await fx.docs.sync(["a.ts"])).release();
  fx.take();
  // Other bytes under the same size and mtime: not read (only a forged mtime does this).
  await Deno.writeTextFile(fx.path("a.ts"), "export const a = 9;\n");
  Deno.utimeSync(fx.path("a.ts"), hourAgo, hourAgo);
  await (await fx.docs.sync(["b.ts"])).release();
  assertEquals(fx.take(), ["didOpen b.ts"], "trusted by its stat");
  // The same size, another mtime (long past too): read, and the change is sent.
  const earlier = new Date(Date.now() - 1_800_000);
  Deno.utimeSync(fx.path("a.ts"), earlier, earlier);
  await (await fx.docs.sync(["b.ts"])).release();
  const sent = fx.sent.find((s) => s.method === "textDocument/didChange");
  assertEquals(sent?.params.contentChanges, [{ text: "export const a = 9;\n" }]);
  fx.take();
  // Another size under the same mtime: read too.
  await Deno.writeTextFile(fx.path("a.ts"), "export const a = 10;\n");
  Deno.utimeSync(fx.path("a.ts"), earlier, earlier);
  await (await fx.docs.sync([])).release();
  assertEquals(fx.take(), ["didChange a.ts", "didChangeWatchedFiles a.ts:2"]);
});

Deno.test("documents: the files a query names are always re-read, open or not", async () => {
  const fx = await fixture({ "a.ts": "export const a = 1;\n", "b.ts": "export const b = 2;\n" });
  await using _ = fx.dir;
  await (await fx.docs.sync(["a.ts"], { transient: true })).release();
  await (await fx.docs.sync(["b.ts"], { transient: true })).release();
  fx.take();
  for (let i = 0; i < 3; i++) {
    await Deno.writeTextFile(fx.path("a.ts"), `export const a = ${i + 100};\n`);
    await (await fx.docs.sync(["a.ts"], { transient: true })).release();
    const open = fx.sent.find((s) => s.method === "textDocument/didOpen");
    assertEquals(open?.params.textDocument?.text, `export const a = ${i + 100};\n`);
    fx.take();
  }
});

Deno.test("documents: versions never repeat, also after a document is forgotten", async () => {
  const fx = await fixture({ "a.ts": "export const a = 1;\n" });
  await using _ = fx.dir;
  const versions: number[] = [];
  for (let i = 0; i < 3; i++) {
    await (await fx.docs.sync(["a.ts"], { transient: true })).release();
    versions.push(
      fx.sent.find((s) => s.method === "textDocument/didOpen")!.params.textDocument!
        .version!,
    );
    fx.take();
  }
  assertEquals(versions, [1, 2, 3]);
});

Deno.test("documents: beyond MAX_OPEN the least recently used unpinned are closed", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i <= MAX_OPEN + 1; i++) files[`f${i}.ts`] = `export const x${i} = ${i};\n`;
  const fx = await fixture(files);
  await using _ = fx.dir;
  const pinned = await fx.docs.sync(["f0.ts"]); // held by a query in flight
  for (let i = 1; i <= MAX_OPEN + 1; i++) await (await fx.docs.sync([`f${i}.ts`])).release();
  const open = fx.docs.openDocuments();
  assertEquals(open.length, MAX_OPEN);
  assert(open.includes("f0.ts"), "a pinned document is never closed for room");
  assert(!open.includes("f1.ts") && !open.includes("f2.ts"), "the least recently used go");
  await pinned.release();
});

Deno.test("diagnostics store: only retained documents are stored, forgotten on close", () => {
  const store = new DiagnosticsStore();
  const open = new Set(["file:///a"]);
  store.retainOnly((uri) => open.has(uri));
  store.publish("file:///a", 1, [{ message: "a" }]);
  for (let i = 0; i < 1000; i++) store.publish(`file:///other${i}`, null, []);
  assertEquals(store.size, 1, "publishes for documents nobody opened are not kept");
  assertEquals(store.get("file:///a")?.diagnostics, [{ message: "a" }]);
  // A document not stored: only publishes after this serial count.
  const serial = store.serial("file:///b");
  open.add("file:///b");
  store.publish("file:///b", null, []);
  assert(store.get("file:///b")!.serial > serial);
  store.forget("file:///a");
  assertEquals(store.get("file:///a"), undefined);
  assertEquals(store.size, 1);
});

Deno.test("diagnostics store: a waiter receives a publish even for a document not retained", async () => {
  const store = new DiagnosticsStore();
  store.retainOnly(() => false);
  const waiting = store.waitFor(
    "file:///a",
    { version: 1, afterSerial: store.serial("file:///a") },
    {
      timeoutMs: 5_000,
    },
  );
  store.publish("file:///a", 1, [{ message: "x" }]);
  assertEquals((await waiting)?.diagnostics, [{ message: "x" }]);
});
