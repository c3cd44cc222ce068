import { assertEquals } from "../../tests/helpers/assert.ts";
import { IgnoreRules } from "./ignore.ts";

Deno.test("IgnoreRules: a verdict is kept until reset, then drawn from the new .gitignore", () => {
  const root = Deno.makeTempDirSync({ prefix: "sextant-ignore-" });
  try {
    Deno.mkdirSync(`${root}/src`);
    Deno.writeTextFileSync(`${root}/.gitignore`, "gen.ts\n");
    const rules = new IgnoreRules(root);
    assertEquals(rules.isIgnored("src/gen.ts", false), true);
    assertEquals(rules.isIgnored("src/main.ts", false), false);
    assertEquals(rules.isIgnoredDeep("src/gen.ts", false), true);
    Deno.writeTextFileSync(`${root}/.gitignore`, "main.ts\n");
    rules.reset();
    assertEquals(rules.isIgnored("src/gen.ts", false), false);
    assertEquals(rules.isIgnored("src/main.ts", false), true);
    assertEquals(rules.isIgnored("src", true), false);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
