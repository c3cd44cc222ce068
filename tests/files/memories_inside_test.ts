/**
 * Memories stay inside the project, with real processes over MCP:
 * - `.sextant/memories` is swapped again and again for a symbolic link to a folder outside while
 *   a session writes, edits, renames and deletes memories: nothing outside is created, changed or
 *   deleted;
 * - a project's own `.git` file (a worktree pointer) that leads to a made-up git folder cannot
 *   point its memories at another folder: they stay in the project.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

/** Every file under `dir` with its content, by relative path. */
function snapshot(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of Deno.readDirSync(dir)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) Object.assign(out, snapshot(join(dir, entry.name), rel));
    else out[rel] = Deno.readTextFileSync(join(dir, entry.name));
  }
  return out;
}

/**
 * A process that swaps `folder` for a link to `outside` and back, again and again, keeping each
 * state for a moment (a spin of 0.2 to 0.5 ms, so the server's checks and its
 * operations often see different states).
 */
function startSwapper(folder: string, outside: string): Deno.ChildProcess {
  const script = `
    const [folder, outside] = Deno.args;
    const real = folder + ".real";
    const hold = () => {
      const until = performance.now() + 0.2 + Math.random() * 0.3;
      while (performance.now() < until) { /* spin */ }
    };
    for (;;) {
      try {
        Deno.renameSync(folder, real);
        Deno.symlinkSync(outside, folder);
        hold();
        Deno.removeSync(folder);
        Deno.renameSync(real, folder);
        hold();
      } catch { /* the other side raced us: try again */ }
    }`;
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", script, folder, outside],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

const NAMES = Array.from({ length: 8 }, (_, i) => `m${i}`);

Deno.test({
  name: "memories: a memory folder swapped for a link to outside never changes anything there",
  ignore: Deno.build.os === "windows",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const files: Record<string, string> = {};
    for (const name of NAMES) {
      files[`project/.sextant/memories/${name}.md`] = `memory ${name}: value = 0\n`;
      files[`outside/${name}.md`] = `outside ${name}: value = 0\n`;
    }
    files["outside/topic/t.md"] = "outside topic\n";
    await using parent = await tempProject(files);
    const root = join(parent.root, "project");
    const memories = join(root, ".sextant", "memories");
    const outside = join(parent.root, "outside");
    const before = snapshot(outside);
    const server = await connect(root);
    const swapper = startSwapper(memories, outside);
    let answered = 0;
    try {
      for (let i = 0; i < 100; i++) {
        const name = NAMES[i % NAMES.length]!;
        const answers = [
          await call(server.client, "write_memory", {
            memory_name: name,
            content: `memory ${name}: value = ${i}\n`,
          }),
          await call(server.client, "write_memory", {
            memory_name: `topic/new${i}`,
            content: `new ${i}\n`,
          }),
          await call(server.client, "edit_memory", {
            memory_name: name,
            needle: "value = \\d+",
            repl: `value = ${i}!`,
            mode: "regex",
          }),
          await call(server.client, "rename_memory", {
            old_name: `topic/new${i}`,
            new_name: `renamed${i}`,
          }),
          await call(server.client, "delete_memory", { memory_name: name }),
        ];
        answered += answers.filter((a) => !a.isError).length;
      }
    } finally {
      swapper.kill("SIGKILL");
      await swapper.status;
      await server.close();
    }
    // Put the real folder back if the swapper stopped halfway.
    if (Deno.lstatSync(memories).isSymlink) Deno.removeSync(memories);
    try {
      Deno.renameSync(`${memories}.real`, memories);
    } catch { /* it was in place */ }
    assertEquals(snapshot(outside), before, "files outside the project were changed");
    assert(answered > 0, "no memory operation got through at all");
  },
});

Deno.test({
  name: "memories: a .git file pointing at a made-up git folder cannot move memories outside",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using parent = await tempProject({ "outside/keep.txt": "x\n", "project/a.txt": "a\n" });
    const root = join(parent.root, "project");
    const outside = join(parent.root, "outside");
    // A folder of the project made to look like a worktree's git folder, whose `commondir` names
    // the outside folder's `.git`: memories would go to the outside folder.
    await Deno.mkdir(join(root, "fake"));
    await Deno.writeTextFile(join(root, "fake", "commondir"), join(outside, ".git") + "\n");
    await Deno.writeTextFile(join(root, ".git"), "gitdir: fake\n");
    const server = await connect(root);
    try {
      const written = await call(server.client, "write_memory", {
        memory_name: "notes",
        content: "where am I\n",
      });
      assert(!written.isError, written.text);
    } finally {
      await server.close();
    }
    assertEquals(snapshot(outside), { "keep.txt": "x\n" }, "a memory was written outside");
    assertEquals(
      await Deno.readTextFile(join(root, ".sextant", "memories", "notes.md")),
      "where am I\n",
    );
  },
});
