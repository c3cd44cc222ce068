import { assertEquals } from "../../tests/helpers/assert.ts";
import { IgnoreRules, MAX_GITIGNORE_RULES } from "./ignore.ts";

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

Deno.test("IgnoreRules: a generated 10 MB .gitignore is applied up to its bound, with a notice", () => {
  const root = Deno.makeTempDirSync({ prefix: "sextant-ignore-" });
  try {
    const lines = ["kept-out.ts"];
    for (let i = 0, size = 0; size < 10_000_000; i++) {
      const line = `generated/path${i}/file_${i}.txt`;
      lines.push(line);
      size += line.length + 1;
    }
    lines.push("last-rule.ts");
    Deno.writeTextFileSync(`${root}/.gitignore`, lines.join("\n"));
    const rules = new IgnoreRules(root);
    assertEquals(rules.isIgnored("kept-out.ts", false), true);
    assertEquals(rules.isIgnored(`generated/path${MAX_GITIGNORE_RULES - 2}/x`, false), false);
    assertEquals(
      rules.isIgnored(
        `generated/path${MAX_GITIGNORE_RULES - 2}/file_${MAX_GITIGNORE_RULES - 2}.txt`,
        false,
      ),
      true,
    );
    // Past the bound: not applied, and said so.
    assertEquals(rules.isIgnored("last-rule.ts", false), false);
    const notices = rules.notices();
    assertEquals(notices.length, 1);
    assertEquals(notices[0]!.startsWith(".gitignore is 10,"), true, notices[0]);
    assertEquals(
      notices[0]!.includes(`first ${MAX_GITIGNORE_RULES.toLocaleString("en")} rules`),
      true,
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("IgnoreRules: a .gitignore with more rules than the bound, though small in bytes", () => {
  const root = Deno.makeTempDirSync({ prefix: "sextant-ignore-" });
  try {
    const lines = Array.from({ length: MAX_GITIGNORE_RULES + 5 }, (_, i) => `f${i}`);
    Deno.writeTextFileSync(`${root}/.gitignore`, lines.join("\n"));
    const rules = new IgnoreRules(root);
    assertEquals(rules.isIgnored("f0", false), true);
    assertEquals(rules.isIgnored(`f${MAX_GITIGNORE_RULES + 1}`, false), false);
    assertEquals(
      rules.notices()[0]!.startsWith(
        `.gitignore has ${(MAX_GITIGNORE_RULES + 5).toLocaleString("en")} rules`,
      ),
      true,
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("IgnoreRules: a folder a walk listed without .gitignore has no rules until reset", () => {
  const root = Deno.makeTempDirSync({ prefix: "sextant-ignore-" });
  try {
    Deno.mkdirSync(`${root}/a`);
    Deno.writeTextFileSync(`${root}/.gitignore`, "top.ts\n");
    const rules = new IgnoreRules(root);
    rules.listedWithout("a");
    // The root's own .gitignore still applies below the listed folder.
    assertEquals(rules.isIgnored("a/top.ts", false), true);
    // A .gitignore written after the listing is read once the rules are reset (the watcher's
    // report of a changed .gitignore does that).
    Deno.writeTextFileSync(`${root}/a/.gitignore`, "late.ts\n");
    assertEquals(rules.isIgnored("a/late.ts", false), false);
    rules.reset();
    assertEquals(rules.isIgnored("a/late.ts", false), true);
    // Told again about a folder whose rules are known, it keeps them.
    rules.listedWithout("a");
    assertEquals(rules.isIgnored("a/b/late.ts", false), true);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
