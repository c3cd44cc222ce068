import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { parseCommandLine } from "./args.ts";

Deno.test("'sextant dashboard' takes --open and nothing else", () => {
  const plain = parseCommandLine(["dashboard"]);
  assertEquals(plain.command, "dashboard");
  assertEquals(plain.open, undefined);
  assertEquals(parseCommandLine(["dashboard", "--open"]).open, true);
  assertThrows(() => parseCommandLine(["dashboard", "now"]), "Unexpected argument 'now'");
});
