import { assertEquals } from "../../tests/helpers/assert.ts";
import { fileUriOf, relPathOfUri } from "./file_uri.ts";

Deno.test("file_uri: a project path and its URI convert both ways", () => {
  const root = "/work/p";
  for (const rel of ["a.ts", "src/deep/b c.ts", "ünï/cödé.py", "..hidden.ts"]) {
    assertEquals(relPathOfUri(root, fileUriOf(root, rel)), rel);
  }
  assertEquals(fileUriOf(root, "."), "file:///work/p");
  assertEquals(fileUriOf(root, "a b.ts"), "file:///work/p/a%20b.ts");
});

Deno.test("file_uri: the root, files outside it and other schemes have no project path", () => {
  const root = "/work/p";
  assertEquals(relPathOfUri(root, "file:///work/p"), null);
  assertEquals(relPathOfUri(root, "file:///work/other/a.ts"), null);
  assertEquals(relPathOfUri(root, "file:///work/p2/a.ts"), null);
  assertEquals(relPathOfUri(root, "untitled:Untitled-1"), null);
  assertEquals(relPathOfUri(root, "jdt://contents/rt.jar/java.lang/String.class"), null);
  assertEquals(relPathOfUri(root, "not a uri"), null);
});
