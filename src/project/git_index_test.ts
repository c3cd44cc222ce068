import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { join } from "node:path";
import { matchesEntry, readGitIndex } from "./git_index.ts";

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

let hasGit = true;
try {
  new Deno.Command("git", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
} catch {
  hasGit = false;
}

for (const version of [2, 3, 4]) {
  Deno.test({
    name: `git index version ${version}: blob ids, sizes and times as git recorded them`,
    ignore: !hasGit,
  }, async () => {
    const root = await Deno.makeTempDir();
    try {
      await git(root, "init", "-q");
      await Deno.mkdir(join(root, "src", "deep"), { recursive: true });
      const files = {
        "src/a.ts": "export const a = 1;\n",
        "src/deep/b.ts": "export const b = 2;\n",
        "src/deep/bb.ts": "export const bb = 3;\n",
        "ü.txt": "unicode\n",
      };
      for (const [rel, text] of Object.entries(files)) {
        await Deno.writeTextFile(join(root, rel), text);
      }
      await git(root, "add", ".");
      await git(root, "update-index", "--index-version", String(version));
      if (version === 3) {
        // An extended flag (intent to add) makes git write version 3 entries with extra bytes.
        await Deno.writeTextFile(join(root, "new.ts"), "x\n");
        await git(root, "add", "-N", "new.ts");
      }
      const index = await readGitIndex(root);
      assert(index !== null, "the index was read");
      for (const [rel] of Object.entries(files)) {
        const entry = index.entries.get(rel);
        assert(entry, `${rel} is in the index`);
        assertEquals(entry.blob, await git(root, "hash-object", rel));
        const stat = await Deno.stat(join(root, rel));
        assertEquals(entry.size, stat.size);
        assertEquals(entry.mtimeMs, stat.mtime!.getTime());
      }
      // A file changed after `git add` no longer matches.
      const stat = await Deno.stat(join(root, "src/a.ts"));
      const older = { ...index, writtenMs: stat.mtime!.getTime() + 5000 };
      const entry = index.entries.get("src/a.ts")!;
      assert(matchesEntry(older, entry, { size: stat.size, mtimeMs: stat.mtime!.getTime() }));
      assert(!matchesEntry(older, entry, { size: stat.size + 1, mtimeMs: stat.mtime!.getTime() }));
      // Written in the same second as the index: racily clean, not trusted.
      assert(
        !matchesEntry({ ...index, writtenMs: stat.mtime!.getTime() }, entry, {
          size: stat.size,
          mtimeMs: stat.mtime!.getTime(),
        }),
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}
