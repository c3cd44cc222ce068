/**
 * The write path under attack and after crashes, with real Sextant processes over MCP: a folder
 * swapped again and again for a symbolic link to outside the project while a session writes into
 * it never lets a write land outside; temporary files that a killed writer left behind are
 * removed by the next write in their folder, while a live writer's are left alone.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

/** Sorted names of every file and folder under `dir`. */
function listAll(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    out.push(rel);
    if (entry.isDirectory) out.push(...listAll(join(dir, entry.name), rel));
  }
  return out.sort();
}

/** A process that swaps `folder` for a link to `outside` and back, as fast as it can. */
function startSwapper(folder: string, outside: string): Deno.ChildProcess {
  const script = `
    const [folder, outside] = Deno.args;
    const real = folder + ".real";
    for (;;) {
      try {
        Deno.renameSync(folder, real);
        Deno.symlinkSync(outside, folder);
        Deno.removeSync(folder);
        Deno.renameSync(real, folder);
      } catch { /* the other side raced us: try again */ }
    }`;
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", script, folder, outside],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

Deno.test("writes: a folder swapped for a link to outside never receives a write", async () => {
  await using parent = await tempProject({
    "project/sub/f.txt": "value = 0\n",
    "outside/f.txt": "value = 0\n",
  });
  const root = join(parent.root, "project");
  const sub = join(root, "sub");
  const outside = join(parent.root, "outside");
  const before = listAll(outside);
  const s = await connect(root);
  const swapper = startSwapper(sub, outside);
  try {
    // At least 150 rounds, and on until a write got through: a swapper this fast can refuse
    // many in a row on a loaded machine.
    let through = 0;
    for (let i = 0; i < 150 || (through === 0 && i < 3_000); i++) {
      const created = await call(s.client, "create_text_file", {
        relative_path: `sub/new-${i}.txt`,
        content: `new ${i}\n`,
      });
      if (!created.isError) through++;
      await call(s.client, "replace_content", {
        relative_path: "sub/f.txt",
        needle: "value = \\d+",
        repl: `value = ${i + 1}`,
        mode: "regex",
      });
    }
  } finally {
    swapper.kill("SIGKILL");
    await swapper.status;
    await s.close();
  }
  // Put the real folder back if the swapper stopped halfway.
  if (Deno.lstatSync(sub).isSymlink) Deno.removeSync(sub);
  try {
    Deno.renameSync(`${sub}.real`, sub);
  } catch { /* it was in place */ }
  assertEquals(listAll(outside), before, "files were created outside the project");
  assertEquals(Deno.readTextFileSync(join(outside, "f.txt")), "value = 0\n");
  // Some writes got through to the real folder, whole.
  assert(listAll(sub).some((name) => name.startsWith("new-")), listAll(sub).join(", "));
  assertEquals(listAll(sub).filter((name) => name.endsWith(".tmp")), []);
});

Deno.test("writes: a dead writer's temporary file goes, a live writer's stays", async () => {
  // A process that has ended: its pid names no process now.
  const ended = new Deno.Command("true").spawn();
  await ended.status;
  const dead = `.big.ts.sextant-${ended.pid}-1.tmp`;
  const live = `.other.ts.sextant-${Deno.pid}-1.tmp`;
  await using project = await tempProject({
    "a.ts": "export const a = 1;\n",
    [dead]: "partial",
    [live]: "being written",
  });
  // The crash was a while ago.
  const old = new Date(Date.now() - 3_600_000);
  Deno.utimeSync(join(project.root, dead), old, old);
  Deno.utimeSync(join(project.root, live), old, old);
  const s = await connect(project.root);
  try {
    const edited = await call(s.client, "replace_content", {
      relative_path: "a.ts",
      needle: "1",
      repl: "2",
      mode: "literal",
    });
    assert(!edited.isError, edited.text);
  } finally {
    await s.close();
  }
  const names = listAll(project.root).filter((name) => name.endsWith(".tmp"));
  assertEquals(names, [live]);
  assertEquals(Deno.readTextFileSync(join(project.root, "a.ts")), "export const a = 2;\n");
});
