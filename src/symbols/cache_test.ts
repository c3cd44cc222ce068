/**
 * The persistent symbol cache: round trip, content-hash and server-identity invalidation,
 * corrupt files, pruning, atomic save.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { tempDir } from "../../tests/helpers/tool_ctx.ts";
import { cacheDir, contentHash, contentHashSync, SymbolCache } from "./cache.ts";
import type { CompactSymbol } from "./model.ts";

const TREE: CompactSymbol[] = [["Shape", 5, 0, 0, 9, 1, 0, 6, 0, 11, [[
  "area",
  6,
  1,
  2,
  3,
  3,
  1,
  2,
  1,
  6,
]]]];

Deno.test("contentHash: SHA-1 hex of the bytes", async () => {
  assertEquals(
    await contentHash(new TextEncoder().encode("abc")),
    "a9993e364706816aba3e25717850c26c9cd0d89d",
  );
});

Deno.test("contentHashSync: the same digits as contentHash", async () => {
  const samples = ["", "abc", "export class Core {}\r\n", "é ü 中文 🙂".repeat(500)];
  for (const text of samples) {
    const bytes = new TextEncoder().encode(text);
    assertEquals(contentHashSync(bytes), await contentHash(bytes));
  }
  assertEquals(
    contentHashSync(new Uint8Array([0, 255, 1])),
    await contentHash(new Uint8Array([0, 255, 1])),
  );
});

Deno.test("symbol cache: save, reload, hash and identity checks", async () => {
  await using dir = await tempDir();
  const cache = new SymbolCache(dir.path, "typescript");
  await cache.load();
  assertEquals(cache.get("src/a.ts", "h1"), undefined);
  cache.identify("typescript|tls|1.0");
  cache.set("src/a.ts", "h1", TREE);
  cache.set("src/\tweird\n.ts", "h2", []);
  await cache.save();
  const gitignore = await Deno.readTextFile(join(cacheDir(dir.path), ".gitignore"));
  assert(gitignore.includes("*"));
  assertEquals(
    (await Array.fromAsync(Deno.readDir(cacheDir(dir.path)))).map((e) => e.name).sort(),
    [
      ".gitignore",
      "symbols-typescript.json",
    ],
  );

  const again = new SymbolCache(dir.path, "typescript");
  await again.load();
  assertEquals(again.size, 2);
  assertEquals(again.identity, "typescript|tls|1.0");
  assertEquals(again.get("src/a.ts", "h1"), TREE);
  assertEquals(again.get("src/\tweird\n.ts", "h2"), []);
  // Another content hash: a miss.
  assertEquals(again.get("src/a.ts", "other"), undefined);
  // Same identity: entries stay.
  again.identify("typescript|tls|1.0");
  assertEquals(again.size, 2);
  // A new server version: everything is dropped, and the drop is saved.
  again.identify("typescript|tls|2.0");
  assertEquals(again.size, 0);
  await again.save();
  const third = new SymbolCache(dir.path, "typescript");
  await third.load();
  assertEquals(third.size, 0);
  assertEquals(third.identity, "typescript|tls|2.0");
});

Deno.test("symbol cache: prune, corrupt files, nothing written when unchanged", async () => {
  await using dir = await tempDir();
  const cache = new SymbolCache(dir.path, "python");
  cache.identify("python|pyright|1");
  cache.set("a.py", "1", TREE);
  cache.set("b.py", "2", TREE);
  cache.prune((p) => p === "b.py");
  assertEquals(cache.get("a.py", "1"), undefined);
  await cache.save();
  const stat = await Deno.stat(cache.path);
  await cache.save(); // not dirty: no write
  assertEquals((await Deno.stat(cache.path)).mtime, stat.mtime);

  await Deno.writeTextFile(cache.path, '{"format":2,"server":"python|pyright|1"}\nnot a line\n');
  const corrupt = new SymbolCache(dir.path, "python");
  await corrupt.load();
  assertEquals(corrupt.size, 0);
  await Deno.writeTextFile(cache.path, '{"format":1,"server":"x","files":{}}');
  const old = new SymbolCache(dir.path, "python");
  await old.load();
  assertEquals(old.size, 0);
  assertEquals(old.identity, null);
  // A corrupt entry is reported on use (the index then asks the server).
  await Deno.writeTextFile(cache.path, '{"format":2,"server":"s"}\n"a.py"\tx\t[[broken\n');
  const bad = new SymbolCache(dir.path, "python");
  await bad.load();
  let threw = false;
  try {
    bad.get("a.py", "x");
  } catch {
    threw = true;
  }
  assert(threw);
  // No temporary files are left behind by saves.
  const names = (await Array.fromAsync(Deno.readDir(cacheDir(dir.path)))).map((e) => e.name);
  assert(names.every((n) => !n.includes(".tmp")), names.join(","));
});
