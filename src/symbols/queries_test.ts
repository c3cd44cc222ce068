import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { normalizeLocations, sameLocations } from "./queries.ts";

const at = (line: number, character: number, length = 7) => ({
  start: { line, character },
  end: { line, character: character + length },
});

Deno.test("sameLocations: two answers listing the same locations, as normalizeLocations reads them", () => {
  const a = [
    { uri: "file:///p/a.ts", range: at(1, 4) },
    { uri: "file:///p/b.ts", range: at(3, 0) },
  ];
  const copy = JSON.parse(JSON.stringify(a));
  assert(sameLocations(a, copy), "the same answer sent again");
  assert(!sameLocations(a, [...copy].reverse()), "another order");
  assert(!sameLocations(a, copy.slice(1)), "one location fewer");
  copy[1].range.end.character++;
  assert(!sameLocations(a, copy), "a range that ends elsewhere");
  assert(!sameLocations(a, [a[0], { uri: "file:///p/c.ts", range: at(3, 0) }]), "another file");
  // A LocationLink is read at its selection range, as normalizeLocations reads it.
  const link = {
    targetUri: "file:///p/a.ts",
    targetRange: at(0, 0, 40),
    targetSelectionRange: at(1, 4),
  };
  assertEquals(normalizeLocations(link), normalizeLocations(a[0]));
  assert(sameLocations([link], [{ ...link }]));
  assert(!sameLocations([link], [{ ...link, targetSelectionRange: at(2, 4) }]));
  assert(sameLocations(null, []), "no answer is an empty one");
  assert(
    !sameLocations([{ uri: "file:///p/a.ts" }], [{ uri: "file:///p/a.ts" }]),
    "no range: never the same",
  );
});
