/**
 * Unit tests of the file-set scan (source_file_set.ts) and of its use by document sync: files created
 * or deleted on disk, directly or in new and removed folders, are reported by the very next scan;
 * ignored folders and other extensions are not; a sync announces new files and opens them for its
 * query only. No sleeps.
 * @module
 */
import { join } from "node:path";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { tempDir } from "../../tests/helpers/tool_ctx.ts";
import { DocumentSync } from "./documents.ts";
import { FileSet } from "./source_file_set.ts";

function fileSet(root: string): FileSet {
  return new FileSet({
    root,
    extensions: [".ts"],
    ignored: (rel) => rel === "node_modules" || rel.endsWith("/node_modules"),
  });
}

Deno.test("file set: the next scan reports created and deleted files", async () => {
  await using dir = await tempDir("sextant-fileset-");
  const at = (rel: string) => join(dir.path, rel);
  await Deno.mkdir(at("src/deep"), { recursive: true });
  await Deno.writeTextFile(at("src/a.ts"), "export const a = 1;\n");
  await Deno.writeTextFile(at("src/deep/b.ts"), "export const b = 1;\n");
  const set = fileSet(dir.path);
  assertEquals(set.scan(), { created: [], deleted: [] });
  assertEquals(set.scan(), { created: [], deleted: [] });

  await Deno.writeTextFile(at("src/c.ts"), "export const c = 1;\n");
  await Deno.writeTextFile(at("src/notes.md"), "# not a source file\n");
  await Deno.mkdir(at("src/new/inner"), { recursive: true });
  await Deno.writeTextFile(at("src/new/inner/d.ts"), "export const d = 1;\n");
  await Deno.mkdir(at("node_modules/pkg"), { recursive: true });
  await Deno.writeTextFile(at("node_modules/pkg/e.ts"), "export const e = 1;\n");
  assertEquals(set.scan(), { created: ["src/c.ts", "src/new/inner/d.ts"], deleted: [] });
  assertEquals(set.scan(), { created: [], deleted: [] });

  await Deno.remove(at("src/a.ts"));
  await Deno.remove(at("src/deep"), { recursive: true });
  assertEquals(set.scan(), { created: [], deleted: ["src/a.ts", "src/deep/b.ts"] });
  await Deno.rename(at("src/c.ts"), at("src/new/c2.ts"));
  assertEquals(set.scan(), { created: ["src/new/c2.ts"], deleted: ["src/c.ts"] });
});

Deno.test("file set: the walk tells which folders have no .gitignore, before asking about their entries", async () => {
  await using dir = await tempDir("sextant-fileset-");
  const at = (rel: string) => join(dir.path, rel);
  await Deno.mkdir(at("src/gen"), { recursive: true });
  await Deno.mkdir(at("lib"), { recursive: true });
  await Deno.writeTextFile(at("src/.gitignore"), "gen/\n");
  await Deno.writeTextFile(at("src/a.ts"), "export const a = 1;\n");
  await Deno.writeTextFile(at("lib/b.ts"), "export const b = 1;\n");
  const without = new Set<string>();
  const asked: string[] = [];
  const set = new FileSet({
    root: dir.path,
    extensions: [".ts"],
    ignored: (rel) => {
      const slash = rel.lastIndexOf("/");
      const folder = slash === -1 ? "" : rel.slice(0, slash);
      // The folder's own listing came first: its verdict on `.gitignore` is known.
      if (folder !== "src") asked.push(`${rel}:${without.has(folder)}`);
      return rel === "src/gen";
    },
    listedWithout: (rel) => without.add(rel),
  });
  set.scan();
  assertEquals([...without].sort(), ["", "lib"]);
  assertEquals(asked.sort(), ["lib/b.ts:true", "lib:true", "src:true"]);
  assertEquals(set.has("src/a.ts") && set.has("lib/b.ts"), true);
});

Deno.test("documents: a new file is announced and open during the next query only", async () => {
  await using dir = await tempDir("sextant-fileset-");
  await Deno.writeTextFile(join(dir.path, "a.ts"), "export const a = 1;\n");
  const sent: string[] = [];
  const docs = new DocumentSync({
    root: dir.path,
    server: {
      notify: (method, params) => {
        const p = params as {
          textDocument?: { uri: string };
          changes?: Array<{ uri: string; type: number }>;
        };
        const name = (uri: string) => uri.slice(uri.lastIndexOf("/") + 1);
        const what = p.changes?.map((c) => `${name(c.uri)}:${c.type}`).join(",") ??
          name(p.textDocument?.uri ?? "");
        sent.push(`${method.replace(/^.*\//, "")} ${what}`);
        return Promise.resolve();
      },
    },
    languageId: () => "typescript",
    fileSet: fileSet(dir.path),
  });
  await (await docs.sync(["a.ts"])).release();
  assertEquals(sent.splice(0), ["didOpen a.ts"]);

  await Deno.writeTextFile(join(dir.path, "b.ts"), "import { a } from './a.ts';\n");
  const lease = await docs.sync(["a.ts"]);
  assertEquals(sent.splice(0), ["didOpen b.ts", "didChangeWatchedFiles b.ts:1"]);
  assertEquals(docs.openDocuments(), ["a.ts", "b.ts"]);
  await lease.release();
  assertEquals(sent.splice(0), ["didClose b.ts"]);
  assertEquals(docs.openDocuments(), ["a.ts"]);

  await Deno.remove(join(dir.path, "b.ts"));
  await (await docs.sync(["a.ts"])).release();
  assertEquals(sent.splice(0), ["didChangeWatchedFiles b.ts:3"]);
});

Deno.test("documents: the file set's first walk comes after the query's documents are opened", async () => {
  // The first scan records what is there and reports nothing: walking the whole tree before the
  // target's `didOpen` only delayed the server's project load.
  await using dir = await tempDir("sextant-fileset-");
  await Deno.writeTextFile(join(dir.path, "a.ts"), "export const a = 1;\n");
  const order: string[] = [];
  class Recorded extends FileSet {
    override scan() {
      order.push("scan");
      return super.scan();
    }
  }
  const set = new Recorded({ root: dir.path, extensions: [".ts"], ignored: () => false });
  const docs = new DocumentSync({
    root: dir.path,
    server: {
      notify: (method) => {
        order.push(method.replace(/^.*\//, ""));
        return Promise.resolve();
      },
    },
    languageId: () => "typescript",
    fileSet: set,
  });
  await (await docs.sync(["a.ts"])).release();
  assertEquals(order.splice(0), ["didOpen", "scan"]);
  assertEquals(set.scanned && set.has("a.ts"), true);
  // From then on every sync scans before it opens, so that a new file is part of the query.
  await Deno.writeTextFile(join(dir.path, "b.ts"), "export const b = 1;\n");
  await (await docs.sync(["a.ts"])).release();
  assertEquals(order.splice(0).slice(0, 3), ["scan", "didOpen", "didChangeWatchedFiles"]);
});
