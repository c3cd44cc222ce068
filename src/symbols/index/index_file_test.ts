import { assertEquals } from "../../../tests/helpers/assert.ts";
import { declaredNames } from "./index_file.ts";
import { parseFile } from "./parser.ts";

const RUN_TEST = `export const runTest = ({ newRouter }: { newRouter: () => object }) => {
  suite("routes", () => {
    const router = newRouter();
    check(router);
  });
};
`;

Deno.test("a file's names: what it declares, and every word of what the rules do not model", async () => {
  const found = await parseFile(RUN_TEST, "typescript");
  // tsserver lists the destructured parameter and its type's member; the rules do not.
  assertEquals(found.exact, false);
  const names = new Set<string>(
    JSON.parse(declaredNames(found.symbols, found.unmodelled ?? RUN_TEST).names),
  );
  for (const name of ["runTest", "router", "newRouter", "object"]) {
    assertEquals(names.has(name), true, name);
  }
  // The function's body is modelled: a name only used there is not a candidate.
  assertEquals(names.has("check"), false);
  // An exact file: its declarations alone.
  const exact = await parseFile("export function check(x: object): void {}\n", "typescript");
  assertEquals(exact.exact, true);
  assertEquals(JSON.parse(declaredNames(exact.symbols).names), ["check"]);
});
