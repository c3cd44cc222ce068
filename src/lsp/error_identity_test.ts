import { assertEquals } from "../../tests/helpers/assert.ts";
import type { Diagnostic } from "../deps.ts";
import { fileErrors, introducedErrors, lineMapping } from "./error_identity.ts";

function error(line: number, from: number, to: number, message: string, code?: string) {
  return {
    range: { start: { line, character: from }, end: { line, character: to } },
    severity: 1,
    message,
    ...(code ? { code } : {}),
  } as Diagnostic;
}

Deno.test("lineMapping: shifts, replacements, insertions and deletions", () => {
  const map = lineMapping("a\nb\nc\nd\n", "x\na\nB\nd\n");
  // `x` inserted above, `b` replaced by `B`, `c` deleted.
  assertEquals([0, 1, 2, 3].map(map), [1, 2, 2, 3]);
  assertEquals(lineMapping("a\n", "a\n")(0), 0);
});

Deno.test("introducedErrors: a rename that changes the text and the message of old errors", () => {
  const before = "from pkg import getPath\ny: str = getPath()\nprint(getPath.x)\n";
  const after = "from pkg import urlPath\ny: str = urlPath()\nprint(urlPath.x)\n";
  const old = fileErrors([
    error(1, 9, 18, 'Type "int" is not assignable to declared type "str"', "reportAssignmentType"),
    error(2, 6, 15, 'Cannot access attribute "x" for function "getPath"', "reportFunction"),
  ], before);
  const now = fileErrors([
    error(1, 9, 18, 'Type "int" is not assignable to declared type "str"', "reportAssignmentType"),
    error(2, 6, 15, 'Cannot access attribute "x" for function "urlPath"', "reportFunction"),
  ], after);
  assertEquals(introducedErrors(old, now), []);
});

Deno.test("introducedErrors: moved code is old, a second copy and a new error are new", () => {
  const before = "a = f()\n";
  const after = "\n\na = f()\nb = f()\nc = g\n";
  const old = fileErrors([error(0, 4, 7, "Bad call", "E1")], before);
  const now = fileErrors([
    error(2, 4, 7, "Bad call", "E1"),
    error(3, 4, 7, "Bad call", "E1"),
    error(4, 4, 5, '"g" is not defined', "E2"),
  ], after);
  assertEquals(introducedErrors(old, now).map((e) => [e.line, e.message]), [
    [3, "Bad call"],
    [4, '"g" is not defined'],
  ]);
});

Deno.test("introducedErrors: a new error of the same kind elsewhere is new", () => {
  const before = "x = a\ny = 1\n";
  const after = "x = b\ny = c\n";
  const old = fileErrors([error(0, 4, 5, '"a" is not defined', "undef")], before);
  const now = fileErrors([
    error(0, 4, 5, '"b" is not defined', "undef"),
    error(1, 4, 5, '"c" is not defined', "undef"),
  ], after);
  assertEquals(introducedErrors(old, now).map((e) => e.line), [1]);
});
