import { isAbsolute, join, resolve } from "node:path";
import { assertEquals } from "../tests/helpers/assert.ts";
import { absolutePath, inFolder, isAbsolutePath, parentFolder } from "./plain_path.ts";

const POSIX = Deno.build.os !== "windows";

Deno.test("plain paths: as node:path gives them, for the folders and names Sextant composes", () => {
  if (!POSIX) return void console.log("skipped: the comparisons below are POSIX paths");
  const folders = [
    "/opt/lsp",
    "/opt/lsp/",
    "/opt//lsp",
    "/",
    "rel/lsp",
    "./rel",
    "../up",
    "/a/./b/../c",
    "/a/b/..",
  ];
  for (const folder of folders) {
    assertEquals(absolutePath(folder), resolve(folder), folder);
    assertEquals(isAbsolutePath(folder), isAbsolute(folder), folder);
    const abs = resolve(folder);
    assertEquals(inFolder(abs, "node_modules", ".bin"), join(abs, "node_modules", ".bin"), folder);
    assertEquals(inFolder(abs, "sextant"), join(abs, "sextant"), folder);
  }
  assertEquals(inFolder("/run/user/1000/", "sextant"), "/run/user/1000/sextant");
  assertEquals(parentFolder("/tmp/sextant-uid-1"), "/tmp");
  assertEquals(parentFolder("/x"), "/");
});
