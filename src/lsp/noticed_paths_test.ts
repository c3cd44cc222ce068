/**
 * Document sync on the watcher's word (noticed_paths.ts, documents.ts), with the project's real
 * watcher and a recording notifier instead of a server: an unchanged project is checked without
 * a full walk, and every change another program makes right before a query is still in it —
 * an edit that keeps the size and puts the mtime back, a file created in a new folder, a
 * deletion. Documents the watcher cannot vouch for (reached through a link) are checked on disk
 * each time, and lost events bring the full check back.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { tempDir } from "../../tests/helpers/tool_ctx.ts";
import { ProjectWatch } from "../project/project_watch.ts";
import { lossyWatcher } from "../../tests/helpers/watcher.ts";
import { DocumentSync, SMALL_CHECK_STATS } from "./documents.ts";
import { isNoticed, NoticedPaths, touches } from "./noticed_paths.ts";
import { FileSet } from "./source_file_set.ts";

async function fixture(files: Record<string, string>, smallCheck = 0) {
  const dir = await tempDir("sextant-noticed-");
  const root = dir.path;
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, rel), text);
  }
  const watcher = lossyWatcher();
  const watch = new ProjectWatch(root, undefined, watcher.open);
  const sent: string[] = [];
  const texts = new Map<string, string>();
  const name = (uri: string) => uri.slice(root.length + "file://".length + 1);
  const docs = new DocumentSync({
    root,
    server: {
      notify: (method, params) => {
        const p = params as {
          textDocument?: { uri: string; text?: string };
          contentChanges?: Array<{ text: string }>;
          changes?: Array<{ uri: string; type: number }>;
        };
        const text = p.textDocument?.text ?? p.contentChanges?.[0]?.text;
        if (p.textDocument && text !== undefined) texts.set(name(p.textDocument.uri), text);
        const what = p.changes?.map((c) => `${name(c.uri)}:${c.type}`).join(",") ??
          name(p.textDocument?.uri ?? "");
        sent.push(`${method.replace(/^.*\//, "")} ${what}`);
        return Promise.resolve();
      },
    },
    languageId: () => "typescript",
    fileSet: new FileSet({
      root,
      extensions: [".ts"],
      ignored: (rel) => rel.split("/").some((p) => p === "node_modules" || p === ".sextant"),
    }),
    noticed: new NoticedPaths(watch),
    smallCheck,
  });
  const sync = async (relPaths: string[]) => await (await docs.sync(relPaths)).release();
  /** Sync until the watcher runs and vouches (the first sync only starts it). */
  const warm = async (relPaths: string[]) => {
    for (let i = 0; i < 200; i++) {
      const before = docs.fullChecks;
      await sync(relPaths);
      if (docs.fullChecks === before) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error("the watcher never vouched for a sync");
  };
  /** Run a shell command: another program than this one. */
  const shell = async (script: string) => {
    const out = await new Deno.Command("sh", { args: ["-c", script], cwd: root }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
  };
  return {
    root,
    watch,
    docs,
    sent,
    texts,
    sync,
    warm,
    shell,
    inject: watcher.inject,
    path: (rel: string) => join(root, rel),
    async [Symbol.asyncDispose]() {
      docs.dispose();
      await watch.dispose();
      await dir[Symbol.asyncDispose]();
    },
  };
}

Deno.test({
  name: "noticed paths: a warm sync checks only what changed, and sees every outside change",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using fx = await fixture({
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
    "src/d.ts": "export const d = 4;\n",
  });
  // Settled mtimes: without the watcher a same-size edit under this mtime goes unseen.
  const hourAgo = Math.floor(Date.now() / 1000) - 3600;
  Deno.utimeSync(fx.path("src/a.ts"), hourAgo, hourAgo);
  await fx.warm(["src/a.ts", "src/b.ts"]);
  fx.sent.splice(0);
  const full = fx.docs.fullChecks;

  // Nothing changed: nothing sent, and no full check.
  await fx.sync(["src/a.ts"]);
  assertEquals(fx.sent.splice(0), []);
  assertEquals(fx.docs.fullChecks, full, "an unchanged project is not walked");

  // Another program rewrites an open document right before the query, with the same size and
  // its old mtime put back: seen, by content.
  await fx.shell(`printf 'export const a = 7;\\n' > src/a.ts && touch -d @${hourAgo} src/a.ts`);
  await fx.sync(["src/b.ts"]);
  assertEquals(fx.sent.splice(0), ["didChange src/a.ts", "didChangeWatchedFiles src/a.ts:2"]);
  assertEquals(fx.texts.get("src/a.ts"), "export const a = 7;\n");

  // The document the query names, changed the same way: seen too.
  await fx.shell(`printf 'export const a = 8;\\n' > src/a.ts && touch -d @${hourAgo} src/a.ts`);
  await fx.sync(["src/a.ts"]);
  assertEquals(fx.sent.splice(0), ["didChange src/a.ts", "didChangeWatchedFiles src/a.ts:2"]);
  assertEquals(fx.texts.get("src/a.ts"), "export const a = 8;\n");

  // A file the server reads from disk itself (never opened), changed by another program:
  // announced before the query, and opened for it (its text sent: TypeScript 7 took the
  // announcement in after the next request), then closed with the query.
  await fx.shell("printf 'export const d = 40;\\n' > src/d.ts");
  assertEquals(fx.docs.fullChecks, full);
  await fx.sync(["src/a.ts"]);
  assertEquals(fx.sent.splice(0), [
    "didOpen src/d.ts",
    "didChangeWatchedFiles src/d.ts:2",
    "didClose src/d.ts",
  ]);

  // A file created in a new folder: announced and open for the query.
  await fx.shell("mkdir -p src/new/deep && printf 'export const c = 3;\\n' > src/new/deep/c.ts");
  await fx.sync(["src/a.ts"]);
  assertEquals(fx.sent.splice(0), [
    "didOpen src/new/deep/c.ts",
    "didChangeWatchedFiles src/new/deep/c.ts:1",
    "didClose src/new/deep/c.ts",
  ]);

  // Deleted by another program: closed and announced.
  await fx.shell("rm src/b.ts");
  await fx.sync(["src/a.ts"]);
  assertEquals(fx.sent.splice(0), ["didClose src/b.ts", "didChangeWatchedFiles src/b.ts:3"]);
  assertEquals(fx.docs.openDocuments(), ["src/a.ts"]);

  // A folder renamed: its files are gone from the old path and new at the other.
  await fx.shell("mv src/new src/renamed");
  await fx.sync(["src/a.ts"]);
  assertEquals(fx.sent.splice(0), [
    "didOpen src/renamed/deep/c.ts",
    "didChangeWatchedFiles src/new/deep/c.ts:3,src/renamed/deep/c.ts:1",
    "didClose src/renamed/deep/c.ts",
  ]);
  assertEquals(fx.docs.fullChecks, full, "all of it on the watcher's word");
});

Deno.test({
  name: "noticed paths: a document reached through a link is checked on disk every time",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using outside = await tempDir("sextant-noticed-outside-");
  await Deno.writeTextFile(join(outside.path, "shared.ts"), "export const s = 1;\n");
  await using fx = await fixture({ "a.ts": "export const a = 1;\n" });
  Deno.symlinkSync(join(outside.path, "shared.ts"), fx.path("shared.ts"));
  await fx.warm(["a.ts", "shared.ts"]);
  fx.sent.splice(0);
  const full = fx.docs.fullChecks;
  // Written outside the watched tree: no event, but the document is not trusted to one.
  await Deno.writeTextFile(join(outside.path, "shared.ts"), "export const s = 22;\n");
  await fx.sync(["a.ts"]);
  assertEquals(fx.sent.splice(0), ["didChange shared.ts", "didChangeWatchedFiles shared.ts:2"]);
  assertEquals(fx.texts.get("shared.ts"), "export const s = 22;\n");
  assertEquals(fx.docs.fullChecks, full);
});

Deno.test({
  name: "noticed paths: lost events bring back the full check, then the watcher's word",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using fx = await fixture({ "a.ts": "export const a = 1;\n" });
  await fx.warm(["a.ts"]);
  fx.sent.splice(0);
  const full = fx.docs.fullChecks;
  await Deno.writeTextFile(fx.path("a.ts"), "export const a = 2;\n");
  fx.inject({ kind: "other", paths: [], flag: "rescan" });
  await fx.sync(["a.ts"]);
  assertEquals(fx.docs.fullChecks, full + 1, "the kernel lost events: everything is checked");
  assertEquals(fx.sent.splice(0), ["didChange a.ts", "didChangeWatchedFiles a.ts:2"]);
  await fx.sync(["a.ts"]);
  assertEquals(fx.docs.fullChecks, full + 1, "then the watcher vouches again");
  assertEquals(fx.sent.splice(0), []);
});

Deno.test({
  name:
    "noticed paths: with a small-check bound, a small project is checked on disk, unless a barrier is under way",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using fx = await fixture({ "a.ts": "export const a = 1;\n" }, SMALL_CHECK_STATS);
  assert(fx.watch.start(), "started by the project (its change feed, its index)");
  await fx.sync(["a.ts"]);
  const before = fx.docs.fullChecks;
  await fx.sync(["a.ts"]);
  assertEquals(fx.docs.fullChecks, before + 1, "a few stats cost less than a barrier");
  // The question already waited for a barrier made since it began: the sync shares it.
  for (let i = 0; i < 200 && !(await fx.watch.barrier()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const since = performance.now();
  assert(await fx.watch.barrier(250, since));
  await Deno.writeTextFile(fx.path("a.ts"), "export const a = 2;\n");
  fx.sent.splice(0);
  await (await fx.docs.sync(["a.ts"], { since: performance.now() })).release();
  assertEquals(fx.docs.fullChecks, before + 2, "no barrier under way since this query began");
  assertEquals(fx.sent.splice(0), ["didChange a.ts", "didChangeWatchedFiles a.ts:2"]);
  await (await fx.docs.sync(["a.ts"], { since })).release();
  assertEquals(fx.docs.fullChecks, before + 2, "the barrier made since the question began");
});

Deno.test("noticed paths: ignored folders are not collected; a folder above a path touches it", () => {
  assert(isNoticed("src/a.ts"));
  assert(!isNoticed("node_modules/x/index.d.ts"));
  assert(!isNoticed("packages/app/node_modules/x.ts"));
  assert(!isNoticed(".sextant/cache/marker"));
  assert(isNoticed("src/node_modules_like/x.ts"));
  const paths = new Set(["src/deep", "b.ts"]);
  assert(touches(paths, "src/deep/x.ts"));
  assert(touches(paths, "b.ts"));
  assert(!touches(paths, "src/deeper/x.ts"));
  assert(!touches(paths, "src/a.ts"));
  assert(!touches(new Set(), "src/a.ts"));
});
