import { assertEquals } from "../../../tests/helpers/assert.ts";
import { serverLocations } from "./occurrence_names.ts";

const PY = { python: true, javascript: false, valueTwin: false };
const TS = { python: false, javascript: false, valueTwin: false };
const JS = { python: false, javascript: true, valueTwin: false };

const at = (line: string, needle: string, nth = 0) => {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = line.indexOf(needle, i + 1);
  return i;
};

Deno.test("an occurrence where the name is the symbol's own is one location", () => {
  const line = "    return Response()";
  const start = at(line, "Response");
  assertEquals(serverLocations([3, start, 3, start + 8], line, "Response", PY), [
    { line: 3, character: start },
  ]);
});

Deno.test("a Python import `f as f` is two references, `f as g` one", () => {
  const reexport = "from .ctx import has_request_context as has_request_context";
  const start = at(reexport, "has_request_context");
  assertEquals(
    serverLocations([11, start, 11, reexport.length], reexport, "has_request_context", PY),
    [{ line: 11, character: start }, { line: 11, character: at(reexport, "has_", 1) }],
  );
  const renamed = "from .sansio.blueprints import Blueprint as SansioBlueprint";
  const from = at(renamed, "Blueprint");
  assertEquals(serverLocations([5, from, 5, renamed.length], renamed, "Blueprint", PY), [
    { line: 5, character: from },
  ]);
});

Deno.test("an alias's uses are not the original's (Python); CommonJS `exports` is not", () => {
  const use = "class Blueprint(SansioBlueprint):";
  const start = at(use, "Sansio");
  assertEquals(serverLocations([17, start, 17, start + 15], use, "Blueprint", PY), []);
  // In TypeScript an alias's uses are references (tsserver lists them): kept.
  assertEquals(serverLocations([17, start, 17, start + 15], use, "Blueprint", TS), [
    { line: 17, character: start },
  ]);
  const commonjs = "exports.getFromContainer = getFromContainer;";
  assertEquals(serverLocations([58, 0, 58, 7], commonjs, "getFromContainer", JS), []);
  // The property of `exports.name = name` is the export's own symbol; the value assigned is a use.
  assertEquals(serverLocations([58, 8, 58, 24], commonjs, "getFromContainer", JS), []);
  assertEquals(serverLocations([58, 27, 58, 43], commonjs, "getFromContainer", JS), [
    { line: 58, character: 27 },
  ]);
  assertEquals(serverLocations([58, 8, 58, 24], commonjs, "getFromContainer", TS), [
    { line: 58, character: 8 },
  ]);
  // A range over several lines is kept at its start.
  assertEquals(serverLocations([2, 4, 5, 1], "x", "y", PY), [{ line: 2, character: 4 }]);
});

Deno.test("`typeof X` is the value's, where the index has both a type and a value X there", () => {
  const line = "export type ReturnDocument = (typeof ReturnDocument)[keyof typeof ReturnDocument];";
  const use = at(line, "ReturnDocument", 1);
  const range = [4605, use, 4605, use + 14];
  assertEquals(serverLocations(range, line, "ReturnDocument", { ...TS, valueTwin: true }), []);
  // A class is a type and a value in one symbol: `typeof Circle` is a reference to it.
  assertEquals(serverLocations(range, line, "ReturnDocument", TS), [
    { line: 4605, character: use },
  ]);
});
