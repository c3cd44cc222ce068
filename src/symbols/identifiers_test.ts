import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { checkNewName } from "./identifiers.ts";

Deno.test("checkNewName accepts identifiers of the common languages", () => {
  for (const name of ["area", "_private", "$store", "Größe", "isEmpty?", "save!", "x'", "v2"]) {
    assertEquals(checkNewName(` ${name} `), name);
  }
});

Deno.test("checkNewName refuses what is no symbol's name", () => {
  for (const name of ["bad name!", "a.b", "2fast", "a-b", "f()", "a;b", "!bang", "a?b"]) {
    assertThrows(() => checkNewName(name), "is not a valid identifier");
  }
  assertThrows(() => checkNewName("   "), "new_name is empty");
});
