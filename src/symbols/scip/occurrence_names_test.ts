import { assertEquals } from "../../../tests/helpers/assert.ts";
import { serverLocations } from "./occurrence_names.ts";

const at = (line: string, needle: string, nth = 0) => {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = line.indexOf(needle, i + 1);
  return i;
};

Deno.test("an occurrence where the name is the symbol's own is one location", () => {
  const line = "    return Response()";
  const start = at(line, "Response");
  assertEquals(serverLocations([3, start, 3, start + 8], line, "Response", true), [
    { line: 3, character: start },
  ]);
});

Deno.test("a Python import `f as f` is two references, `f as g` one", () => {
  const reexport = "from .ctx import has_request_context as has_request_context";
  const start = at(reexport, "has_request_context");
  assertEquals(
    serverLocations([11, start, 11, reexport.length], reexport, "has_request_context", true),
    [{ line: 11, character: start }, { line: 11, character: at(reexport, "has_", 1) }],
  );
  const renamed = "from .sansio.blueprints import Blueprint as SansioBlueprint";
  const from = at(renamed, "Blueprint");
  assertEquals(serverLocations([5, from, 5, renamed.length], renamed, "Blueprint", true), [
    { line: 5, character: from },
  ]);
});

Deno.test("an alias's uses are not the original's (Python); CommonJS `exports` is not", () => {
  const use = "class Blueprint(SansioBlueprint):";
  const start = at(use, "Sansio");
  assertEquals(serverLocations([17, start, 17, start + 15], use, "Blueprint", true), []);
  // In TypeScript an alias's uses are references (tsserver lists them): kept.
  assertEquals(serverLocations([17, start, 17, start + 15], use, "Blueprint", false), [
    { line: 17, character: start },
  ]);
  const commonjs = "exports.getFromContainer = getFromContainer;";
  assertEquals(serverLocations([58, 0, 58, 7], commonjs, "getFromContainer", false), []);
  // A range over several lines is kept at its start.
  assertEquals(serverLocations([2, 4, 5, 1], "x", "y", true), [{ line: 2, character: 4 }]);
});
