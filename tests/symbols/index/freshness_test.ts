/**
 * The declaration index stays equal to a from-scratch scan after outside changes: edits,
 * creations, deletions and renames of files and folders, made straight on disk (not through
 * Sextant), and a .gitignore change. After each change the watched index is asked to be ready
 * (which waits until the watcher has reported everything before the call), then compared, file
 * by file and declaration by declaration, with a new index built without a watcher or a cache.
 * Also: a warm start from disk equals a cold build, and a file that does not parse is left to
 * the language server (listed with the files the index does not parse).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { tempDir, writeTree } from "../../helpers/tool_ctx.ts";
import { loadSettings } from "../../../src/config/load.ts";
import { Project } from "../../../src/project/project.ts";
import { DeclarationIndex, ParseWorkers } from "../../../src/symbols/index/mod.ts";

async function openProject(root: string): Promise<Project> {
  return Project.open(root, await loadSettings({ projectRoot: root, globalFile: null }));
}

/** Every indexed file with its declarations, plus the unparsed files. */
function snapshot(index: DeclarationIndex): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of index.indexedFiles()) out[f] = index.declarations(f);
  out["<others>"] = index.otherFiles();
  return out;
}

async function scratch(root: string, workers: ParseWorkers): Promise<DeclarationIndex> {
  const index = new DeclarationIndex(await openProject(root), {
    workers,
    watch: false,
    persist: false,
  });
  await index.ready();
  return index;
}

Deno.test({
  name: "the declaration index equals a from-scratch scan after outside changes",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using dir = await tempDir();
  const root = dir.path;
  await writeTree(root, {
    "src/a.ts": "export class Alpha {\n  run(): void {}\n}\n",
    "src/b.ts": "export function beta() {\n  const inner = 1;\n  return inner;\n}\n",
    "src/deep/c.py": "class Gamma:\n    def go(self):\n        pass\n",
    "lib/d.rs": "pub struct Delta { x: i32 }\nimpl Delta { fn new() -> Self { Delta { x: 1 } } }\n",
    "README.md": "# readme\n",
    "build/out.js": "function ignoredOutput() {}\n",
    ".gitignore": "build/\n",
  });
  const workers = new ParseWorkers({ size: 2, idleMs: 60_000 });
  const index = new DeclarationIndex(await openProject(root), { workers, persist: false });
  const progress: string[] = [];
  await index.ready({ onProgress: (m) => progress.push(m) });
  assert(progress.some((m) => m.startsWith("Symbol index ready")), progress.join("\n"));

  const agree = async (what: string) => {
    await index.ready();
    const fresh = await scratch(root, workers);
    assertEquals(snapshot(index), snapshot(fresh), what);
    await fresh.dispose();
  };

  try {
    await t.step("initial build: ignored folders skipped, other files listed", async () => {
      await agree("initial");
      assertEquals(index.candidates("Alpha"), ["src/a.ts"]);
      assertEquals(index.candidates("ignoredOutput"), []);
      assertEquals(index.candidates("inner"), ["src/b.ts"]);
      assertEquals(index.candidates("go"), ["src/deep/c.py"]);
      assertEquals(index.candidates("new"), ["lib/d.rs"]);
      assertEquals(index.candidates("lph", { substring: true }), ["src/a.ts"]);
      assertEquals(index.candidates("Alpha", { scope: "lib" }), []);
      assertEquals(index.otherFiles(), [".gitignore", "README.md"]);
    });

    await t.step("edit a file", async () => {
      await Deno.writeTextFile(join(root, "src/a.ts"), "export class Renamed {}\n");
      await agree("after edit");
      assertEquals(index.candidates("Alpha"), []);
      assertEquals(index.candidates("Renamed"), ["src/a.ts"]);
    });

    await t.step("create a file, then delete one", async () => {
      await Deno.writeTextFile(join(root, "src/new.ts"), "export interface Fresh {}\n");
      await agree("after create");
      assertEquals(index.candidates("Fresh"), ["src/new.ts"]);
      await Deno.remove(join(root, "src/b.ts"));
      await agree("after delete");
      assertEquals(index.candidates("beta"), []);
    });

    await t.step("rename a file and a folder", async () => {
      await Deno.rename(join(root, "src/new.ts"), join(root, "src/newer.ts"));
      await agree("after file rename");
      assertEquals(index.candidates("Fresh"), ["src/newer.ts"]);
      await Deno.rename(join(root, "src/deep"), join(root, "moved"));
      await agree("after folder rename");
      assertEquals(index.candidates("Gamma"), ["moved/c.py"]);
    });

    await t.step("create a folder tree at once, then delete a folder", async () => {
      // Built elsewhere and moved in: the watcher reports one folder, not its files.
      const staging = join(dir.path, "..", `staging-${crypto.randomUUID()}`);
      await writeTree(staging, {
        "x/one.go": "package x\n\nfunc One() {}\n\ntype Two struct{ F int }\n",
        "x/y/three.c": "int three(void) { return 3; }\n",
      });
      try {
        await Deno.rename(staging, join(root, "pkg"));
      } catch {
        // Another filesystem: copy instead.
        await writeTree(join(root, "pkg"), {
          "x/one.go": "package x\n\nfunc One() {}\n\ntype Two struct{ F int }\n",
          "x/y/three.c": "int three(void) { return 3; }\n",
        });
        await Deno.remove(staging, { recursive: true });
      }
      await agree("after folder creation");
      assertEquals(index.candidates("three"), ["pkg/x/y/three.c"]);
      assertEquals(index.candidates("F"), ["pkg/x/one.go"]);
      await Deno.remove(join(root, "pkg/x"), { recursive: true });
      await agree("after folder deletion");
      assertEquals(index.candidates("One"), []);
    });

    await t.step("a .gitignore change", async () => {
      await Deno.writeTextFile(join(root, ".gitignore"), "moved/\n");
      await agree("after .gitignore change");
      assertEquals(index.candidates("Gamma"), []);
      assertEquals(index.candidates("ignoredOutput"), ["build/out.js"]);
    });

    await t.step(
      "a folder that becomes an environment or build output leaves the index",
      async () => {
        // Files first, the marker last, as `python3 -m venv` and a build write them.
        await writeTree(root, { "env/lib/site.py": "class Pip:\n    pass\n" });
        await agree("before pyvenv.cfg");
        assertEquals(index.candidates("Pip"), ["env/lib/site.py"]);
        await Deno.writeTextFile(join(root, "env/pyvenv.cfg"), "home = /usr/bin\n");
        await agree("after pyvenv.cfg");
        assertEquals(index.candidates("Pip"), []);
        await writeTree(root, { "dist/index.js": "export function bundled() {}\n" });
        await agree("before package.json");
        assertEquals(index.candidates("bundled"), ["dist/index.js"]);
        await Deno.writeTextFile(join(root, "package.json"), '{"main": "dist/index.js"}\n');
        await agree("after package.json names dist");
        assertEquals(index.candidates("bundled"), []);
        await Deno.writeTextFile(join(root, "package.json"), '{"main": "src/index.js"}\n');
        await agree("after package.json no longer names dist");
        assertEquals(index.candidates("bundled"), ["dist/index.js"]);
      },
    );

    await t.step("our own edits (filesChanged) are seen before the next answer", async () => {
      await Deno.writeTextFile(join(root, "src/a.ts"), "export class Mine {}\n");
      await index.filesChanged([join(root, "src/a.ts")]);
      assertEquals(index.candidates("Mine"), ["src/a.ts"]);
    });
  } finally {
    await index.dispose();
    workers.close();
  }
});

Deno.test({
  name: "the declaration index: warm start from disk equals a cold build",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "a.ts": "export class A { m() {} }\n",
    "b.py": "def b():\n    pass\n",
  });
  const workers = new ParseWorkers({ size: 1 });
  try {
    const cold = new DeclarationIndex(await openProject(dir.path), { workers, watch: false });
    await cold.ready();
    await cold.dispose();
    // Changed while no index ran: found by size, time or hash.
    await Deno.writeTextFile(join(dir.path, "b.py"), "def c():\n    pass\n");
    const warm = new DeclarationIndex(await openProject(dir.path), { workers, watch: false });
    await warm.ready();
    const fresh = await scratch(dir.path, workers);
    assertEquals(snapshot(warm), snapshot(fresh));
    assertEquals(warm.candidates("c"), ["b.py"]);
    await warm.dispose();
    await fresh.dispose();
  } finally {
    workers.close();
  }
});

Deno.test({
  name: "the declaration index: a file that does not parse is left to the language server",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "broken.ts": "export class Good {\n  ok() {}\n}\nfunction (((\nexport function after() {}\n",
    "broken.py": "def fine():\n    pass\n\ndef broken(:\n\nclass Later:\n    pass\n",
    "binary.ts": new Uint8Array([0, 159, 146, 150, 0, 255, 0]),
    "empty.rs": "",
  });
  const index = new DeclarationIndex(await openProject(dir.path), {
    workers: { size: 1 },
    watch: false,
    persist: false,
  });
  try {
    await index.ready();
    // What tree-sitter guessed around a syntax error is not trusted: every search reads these
    // files, and their symbols come from the server.
    assertEquals(index.candidates("Good"), []);
    assertEquals(index.candidates("Later"), []);
    assertEquals(index.otherFiles(), ["binary.ts", "broken.py", "broken.ts"]);
    assertEquals(index.declarations("empty.rs"), []);
  } finally {
    await index.dispose();
  }
});

Deno.test({
  name: "a one-file search is answered before the walk reaches the rest of the tree",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "src/a_first.ts": "export const first = 1;\n",
    "src/b_blocked.ts": "export const blocked = 1;\n",
    "src/target.ts": "export class Target {}\n",
  });
  const project = await openProject(dir.path);
  // The walk stops before src/b_blocked.ts until the search is answered (a large tree's walk,
  // still listing files while a references query needs its target's file). Were the search to
  // wait for the walk, nothing could settle it: Deno fails the test (pending promise, idle loop).
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const walk = project.walk.bind(project);
  project.walk = async function* (start, options) {
    for await (const entry of walk(start, options)) {
      if (entry.path === "src/b_blocked.ts") await gate;
      yield entry;
    }
  };
  const workers = new ParseWorkers({ size: 1 });
  const index = new DeclarationIndex(project, { workers, watch: false, persist: false });
  try {
    await index.prepareFor("Target", { scope: "src/target.ts" });
    assertEquals(index.built, false);
    assertEquals(index.candidates("Target", { scope: "src/target.ts" }), ["src/target.ts"]);
    release();
    await index.ready();
    // The walk skipped the file sent ahead: listed once, declared once.
    assertEquals(index.indexedFiles(), ["src/a_first.ts", "src/b_blocked.ts", "src/target.ts"]);
    assertEquals(index.candidates("Target"), ["src/target.ts"]);
    assertEquals(index.stats().files, 3);
  } finally {
    release();
    await index.dispose();
    workers.close();
  }
});
