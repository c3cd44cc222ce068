import { assert } from "../tests/helpers/assert.ts";
import { isDenoCli } from "./executables.ts";

Deno.test("isDenoCli: the deno CLI by path or name, never a compiled Sextant", () => {
  for (const deno of ["deno", "/usr/local/bin/deno", "C:\\Deno\\deno.exe", "DENO.EXE"]) {
    assert(isDenoCli(deno), deno);
  }
  for (const other of ["sextant", "/opt/sextant/sextant", "denoland", "/bin/mydeno", "deno.sh"]) {
    assert(!isDenoCli(other), other);
  }
  assert(isDenoCli(Deno.execPath()), "these tests run under the deno CLI");
});
