import { assert, assertEquals } from "../tests/helpers/assert.ts";
import { isDenoCli, ownProgram } from "./executables.ts";

Deno.test("isDenoCli: the deno CLI by path or name, never a compiled Sextant", () => {
  for (const deno of ["deno", "/usr/local/bin/deno", "C:\\Deno\\deno.exe", "DENO.EXE"]) {
    assert(isDenoCli(deno), deno);
  }
  for (const other of ["sextant", "/opt/sextant/sextant", "denoland", "/bin/mydeno", "deno.sh"]) {
    assert(!isDenoCli(other), other);
  }
  assert(isDenoCli(Deno.execPath()), "these tests run under the deno CLI");
});

Deno.test("ownProgram: this executable where --allow-run allows its path, else its name", async () => {
  // These tests run with --allow-all: every path is allowed.
  assertEquals(ownProgram("/usr/bin/deno"), "/usr/bin/deno");
  // Under an allow-list of names, the name: what PATH finds may be a link to this executable.
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { ownProgram } from ${JSON.stringify(import.meta.resolve("./executables.ts"))};
      console.log(JSON.stringify([ownProgram("/opt/x/deno"), ownProgram("/opt/x/sextant")]));`,
    );
    const { stdout, success } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--allow-run=deno,sextant", "--allow-read", script],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert(success);
    assertEquals(JSON.parse(new TextDecoder().decode(stdout)), ["deno", "sextant"]);
  } finally {
    await Deno.remove(script);
  }
});
