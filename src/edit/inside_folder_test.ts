import { join } from "node:path";
import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { makeFolderIn, removeFileInFolder, writeFileInFolder } from "./inside_folder.ts";

function tempFolder(): string {
  return Deno.realPathSync(Deno.makeTempDirSync());
}

Deno.test("inside_folder: writes, makes folders and removes in a real folder", () => {
  const dir = tempFolder();
  try {
    writeFileInFolder(dir, "a.md", new TextEncoder().encode("one\n"), 0o600);
    assertEquals(Deno.readTextFileSync(join(dir, "a.md")), "one\n");
    if (Deno.build.os !== "windows") {
      assertEquals(Deno.statSync(join(dir, "a.md")).mode! & 0o777, 0o600);
    }
    makeFolderIn(dir, "topic");
    makeFolderIn(dir, "topic");
    assertEquals(Deno.statSync(join(dir, "topic")).isDirectory, true);
    removeFileInFolder(dir, "a.md");
    // Nothing left behind: no file, no temporary name.
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["topic"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("inside_folder: a folder reached through a link is refused and nothing changes there", () => {
  if (Deno.build.os === "windows") return;
  const dir = tempFolder();
  try {
    Deno.mkdirSync(join(dir, "outside"));
    Deno.writeTextFileSync(join(dir, "outside", "a.md"), "outside\n");
    Deno.symlinkSync(join(dir, "outside"), join(dir, "link"));
    const link = join(dir, "link");
    assertThrows(
      () => writeFileInFolder(link, "a.md", new Uint8Array(1)),
      "changed during the operation",
    );
    assertThrows(() => removeFileInFolder(link, "a.md"), "changed during the operation");
    assertThrows(() => makeFolderIn(link, "new"), "changed during the operation");
    assertEquals([...Deno.readDirSync(join(dir, "outside"))].map((e) => e.name), ["a.md"]);
    assertEquals(Deno.readTextFileSync(join(dir, "outside", "a.md")), "outside\n");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("inside_folder: a name with a folder in it is a programming error", () => {
  assertThrows(() => removeFileInFolder("/tmp", "a/b"), "without folders");
});
