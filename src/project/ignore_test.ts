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

Deno.test("IgnoreRules: each folder's .gitignore tests the path below it, the deepest last", () => {
  const root = Deno.makeTempDirSync({ prefix: "sextant-ignore-" });
  try {
    Deno.mkdirSync(`${root}/a/b/c`, { recursive: true });
    Deno.writeTextFileSync(`${root}/.gitignore`, "/a/b/top.ts\n*.gen.ts\nout/\n");
    Deno.writeTextFileSync(`${root}/a/.gitignore`, "/b/mid.ts\n!keep.gen.ts\n");
    Deno.writeTextFileSync(`${root}/a/b/c/.gitignore`, "deep.ts\n");
    const rules = new IgnoreRules(root, { ignoredPaths: ["# a comment", "", "/cfg.ts"] });
    const verdicts = [
      "a/b/top.ts", // anchored in the root's file
      "a/b/mid.ts", // anchored in a/'s file
      "b/mid.ts", // a/'s rule does not reach outside a/
      "a/x.gen.ts",
      "a/b/keep.gen.ts", // re-included by a/'s file
      "keep.gen.ts", // ... which does not apply at the root
      "a/b/c/deep.ts",
      "a/deep.ts",
      "cfg.ts", // ignored_paths
      "a/cfg.ts",
    ].map((path) => [path, rules.isIgnored(path, false)]);
    assertEquals(verdicts, [
      ["a/b/top.ts", true],
      ["a/b/mid.ts", true],
      ["b/mid.ts", false],
      ["a/x.gen.ts", true],
      ["a/b/keep.gen.ts", false],
      ["keep.gen.ts", true],
      ["a/b/c/deep.ts", true],
      ["a/deep.ts", false],
      ["cfg.ts", true],
      ["a/cfg.ts", false],
    ]);
    assertEquals([rules.isIgnored("a/b/out", true), rules.isIgnored("a/b/out", false)], [
      true,
      false,
    ]);
    assertEquals(
      new IgnoreRules(root, { ignoredPaths: ["# only a comment"] }).isIgnored("cfg.ts", false),
      false,
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
