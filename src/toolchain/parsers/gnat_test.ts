/**
 * The gnat parser on recorded output: GNAT's compiler messages.
 * @module
 */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { parseGnat } from "./gnat.ts";

Deno.test("GNAT messages: severities, switch tags, continuation merge, old format", () => {
  const output = `/p/src/a.adb:9:27: error: expected type "Standard.Integer"
/p/src/a.adb:9:27: error: found a string type
/p/src/a.adb:12:04: warning: variable "X" is not referenced [-gnatwu]
/p/src/b.adb:1:01: (style) bad casing
b.ads:3:10: missing ";"
gprbuild: *** compilation phase failed
`;
  const [a, w, s, old, ...rest] = parseGnat(output, "/p");
  assertEquals(rest.length, 0);
  assertEquals(a?.message, 'expected type "Standard.Integer"; found a string type');
  assertEquals([w?.severity, w?.code, w?.message], [
    "warning",
    "-gnatwu",
    'variable "X" is not referenced',
  ]);
  assertEquals([s?.severity, s?.code], ["warning", "style"]);
  assertEquals([old?.file, old?.severity], ["b.ads", "error"]);
});
