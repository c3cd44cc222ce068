import { join } from "node:path";
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { makeFolderIn, removeFileInFolder, writeFileInFolder } from "./inside_folder.ts";

function tempFolder(): string {
  return Deno.realPathSync(Deno.makeTempDirSync());
}

/** Every name under `dir`, sorted, folders with a trailing slash. */
function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name + (e.isDirectory ? "/" : "")).sort();
}

/** The steps of writes, new folders and removals, with `sh` (as Sextant runs) or without. */
async function steps(dir: string): Promise<void> {
  await writeFileInFolder(dir, "a.md", new TextEncoder().encode("one\n"), 0o600);
  assertEquals(Deno.readTextFileSync(join(dir, "a.md")), "one\n");
  if (Deno.build.os !== "windows") {
    assertEquals(Deno.statSync(join(dir, "a.md")).mode! & 0o777, 0o600);
  }
  await writeFileInFolder(dir, "a.md", new TextEncoder().encode("two\n"));
  assertEquals(Deno.readTextFileSync(join(dir, "a.md")), "two\n");
  await writeFileInFolder(dir, "b.md", new TextEncoder().encode("b\n"));
  if (Deno.build.os !== "windows") {
    // As a file Deno creates with mode 0o644 under the process's umask.
    assertEquals(Deno.statSync(join(dir, "b.md")).mode! & 0o133, 0);
  }
  await makeFolderIn(dir, "topic");
  await makeFolderIn(dir, "topic");
  assertEquals(Deno.statSync(join(dir, "topic")).isDirectory, true);
  await removeFileInFolder(dir, "a.md");
  await assertRejects(() => removeFileInFolder(dir, "topic"));
  await assertRejects(() => removeFileInFolder(dir, "missing.md"));
  // Nothing left behind: no file, no temporary name.
  assertEquals(names(dir), ["b.md", "topic/"]);
}

Deno.test("inside_folder: writes, makes folders and removes in a real folder", async () => {
  const dir = tempFolder();
  try {
    await steps(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "inside_folder: the same steps where sh cannot be started (each step checked instead)",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = tempFolder();
    const script = `
      const { steps } = await import(${JSON.stringify(import.meta.url)});
      await steps(${JSON.stringify(dir)});
      console.log("done");`;
    try {
      // No --allow-run: Deno refuses to start sh, as a sandbox without it would.
      const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["eval", "--quiet", "--no-prompt", "--allow-read", "--allow-write", script],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const err = new TextDecoder().decode(stderr);
      assertEquals([code, new TextDecoder().decode(stdout).trim()], [0, "done"], err);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "inside_folder: a folder reached through a link is refused and nothing changes there",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = tempFolder();
    try {
      Deno.mkdirSync(join(dir, "outside"));
      Deno.writeTextFileSync(join(dir, "outside", "a.md"), "outside\n");
      Deno.symlinkSync(join(dir, "outside"), join(dir, "link"));
      const link = join(dir, "link");
      const swapped = "changed during the operation";
      await assertRejects(() => writeFileInFolder(link, "a.md", new Uint8Array(1)), swapped);
      await assertRejects(() => removeFileInFolder(link, "a.md"), swapped);
      await assertRejects(() => makeFolderIn(link, "new"), swapped);
      assertEquals(names(join(dir, "outside")), ["a.md"]);
      assertEquals(Deno.readTextFileSync(join(dir, "outside", "a.md")), "outside\n");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "inside_folder: names in the folder that are links to outside lead nowhere outside",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = tempFolder();
    try {
      const inside = join(dir, "inside");
      const outside = join(dir, "outside");
      Deno.mkdirSync(inside);
      Deno.mkdirSync(outside);
      Deno.writeTextFileSync(join(outside, "a.md"), "outside\n");
      Deno.symlinkSync(join(outside, "a.md"), join(inside, "a.md"));
      Deno.symlinkSync(outside, join(inside, "topic"));
      // A write replaces the link itself; a new folder is refused where a link stands.
      await writeFileInFolder(inside, "a.md", new TextEncoder().encode("inside\n"));
      assertEquals(Deno.lstatSync(join(inside, "a.md")).isFile, true);
      await assertRejects(() => makeFolderIn(inside, "topic"));
      // A removal removes the link, never what it leads to.
      Deno.symlinkSync(join(outside, "a.md"), join(inside, "b.md"));
      await removeFileInFolder(inside, "b.md");
      assertEquals(names(inside), ["a.md", "topic"]);
      assertEquals(names(outside), ["a.md"]);
      assertEquals(Deno.readTextFileSync(join(outside, "a.md")), "outside\n");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("inside_folder: a name with a folder in it is a programming error", async () => {
  await assertRejects(() => removeFileInFolder("/tmp", "a/b"), "without folders");
});

export { steps };
