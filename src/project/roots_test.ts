import { assertEquals } from "../../tests/helpers/assert.ts";
import { chooseProjectRoot, fileUriToPath, isWithin, rootPaths } from "./roots.ts";

const posix = { windows: false };
const win = { windows: true };

Deno.test("fileUriToPath: POSIX paths, percent-decoding, other schemes and hosts ignored", () => {
  assertEquals(fileUriToPath("file:///home/me/app", posix), "/home/me/app");
  assertEquals(fileUriToPath("file:///home/me/my%20app/", posix), "/home/me/my app");
  assertEquals(fileUriToPath("file://localhost/srv/x", posix), "/srv/x");
  assertEquals(fileUriToPath("file:///", posix), "/");
  assertEquals(fileUriToPath("file://remote/srv/x", posix), null);
  assertEquals(fileUriToPath("https://example.com/x", posix), null);
  assertEquals(fileUriToPath("vscode-vfs://github/x", posix), null);
  assertEquals(fileUriToPath("not a uri", posix), null);
  assertEquals(fileUriToPath("file:///a%00b", posix), null);
});

Deno.test("fileUriToPath: Windows drives and UNC shares", () => {
  assertEquals(fileUriToPath("file:///C:/src/app", win), "C:\\src\\app");
  assertEquals(fileUriToPath("file:///c%3A/src/my%20app/", win), "c:\\src\\my app");
  assertEquals(fileUriToPath("file:///D:/", win), "D:\\");
  assertEquals(fileUriToPath("file://server/share/app", win), "\\\\server\\share\\app");
});

Deno.test("isWithin: prefix tricks are not containment; Windows is case-insensitive", () => {
  assertEquals(isWithin("/src/app/a.ts", "/src/app", posix), true);
  assertEquals(isWithin("/src/app", "/src/app", posix), true);
  assertEquals(isWithin("/src/app-evil/a.ts", "/src/app", posix), false);
  assertEquals(isWithin("c:\\SRC\\App\\a.ts", "C:\\src\\app", win), true);
  assertEquals(isWithin("C:\\a.ts", "C:\\", win), true);
});

Deno.test("chooseProjectRoot: the root holding the file (deepest), else the first", () => {
  const roots = [
    { uri: "https://example.com/x" },
    { uri: "file:///src/app" },
    { uri: "file:///src/lib", name: "lib" },
    { uri: "file:///src/lib/inner" },
  ];
  assertEquals(rootPaths(roots, posix), ["/src/app", "/src/lib", "/src/lib/inner"]);
  assertEquals(chooseProjectRoot(roots, "/src/lib/x.ts", posix), "/src/lib");
  assertEquals(chooseProjectRoot(roots, "/src/lib/inner/x.ts", posix), "/src/lib/inner");
  assertEquals(chooseProjectRoot(roots, "/elsewhere/x.ts", posix), "/src/app");
  assertEquals(chooseProjectRoot(roots, undefined, posix), "/src/app");
  assertEquals(chooseProjectRoot([{ uri: "https://x" }], undefined, posix), null);
  assertEquals(chooseProjectRoot([], "/a", posix), null);
});
