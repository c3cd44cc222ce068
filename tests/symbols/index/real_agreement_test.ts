/**
 * The declaration index on real code: every file it marks exact has the tree its server's
 * documentSymbol gives (scripts/checks/index_agreement.ts's check, on the real projects the test set-up
 * fetches into `.cache/real/`: cobra for gopls, csv for rust-analyzer, flask for pyright), and on
 * Sextant's own sources for TypeScript 7's server. The other trees the index was checked on are recorded in
 * docs/index-agreement.md.
 */
import { assert, assertEquals } from "../../helpers/assert.ts";
import { join } from "node:path";
import {
  hasServer,
  hasTypeScript7,
  linkTypeScript7,
  REPO_ROOT,
  skipUnless,
} from "../../helpers/lsp.ts";
import { copyTree, realCopy, realOrReason, type RealProject } from "../../helpers/real_code.ts";
import { type FlaskSource, flaskSource } from "../../toolchain/real_toolchains.ts";
import { agreement, reportLines } from "../../../scripts/checks/index_agreement.ts";

const CASES: Array<{ id: "go" | "rust"; server: string; probe: string[]; minExact: number }> = [
  // cobra v1.8.1: 34 of its 36 files are exact.
  { id: "go", server: "gopls", probe: ["version"], minExact: 30 },
  // csv 1.4.0: most of its files are exact (generic impls and item macros are not modelled).
  { id: "rust", server: "rust-analyzer", probe: ["--version"], minExact: 5 },
];

/** Runs `fn` with `env` set, then puts the variables back as they were. */
async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, Deno.env.get(k)]));
  for (const [k, v] of Object.entries(env)) Deno.env.set(k, v);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) Deno.env.delete(k);
      else Deno.env.set(k, v);
    }
  }
}

for (const { id, server, probe, minExact } of CASES) {
  const real: RealProject | string = hasServer(server, probe)
    ? await realOrReason(id)
    : `${server} is not installed`;
  if (typeof real === "string") {
    console.log(`skipping the index agreement on real ${id} code: ${real}`);
  }
  Deno.test({
    name: `declaration index: exact files equal ${server}'s documentSymbol on real ${id} code`,
    ignore: typeof real === "string",
    sanitizeResources: false,
    sanitizeOps: false,
  }, async () => {
    if (typeof real === "string") return;
    await using copy = await realCopy(real);
    const result = await withEnv(real.env, () => agreement(copy.root, { concurrency: 4 }));
    console.log(reportLines(real.label, result).join("\n"));
    assertEquals(result.failures, [], "the server failed on some files");
    assertEquals(result.disagreements, [], "exact files that disagree with the server");
    assertEquals(result.total.disagree, 0);
    assert(
      result.total.exact >= minExact,
      `only ${result.total.exact} of ${result.files} files are exact`,
    );
  });
}

const flask: FlaskSource | string = hasServer("pyright-langserver")
  ? await flaskSource().catch((error: Error) => `flask could not be fetched: ${error.message}`)
  : "pyright-langserver is not installed";
if (typeof flask === "string") console.log(`skipping the index agreement on flask: ${flask}`);

Deno.test({
  name: "declaration index: exact files equal pyright's documentSymbol on real Python code (flask)",
  ignore: typeof flask === "string",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  if (typeof flask === "string") return;
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-py-agreement-" }));
  try {
    const root = join(parent, "flask");
    await copyTree(flask.template, root, (rel) => rel === ".pin");
    const result = await agreement(root, { concurrency: 4 });
    console.log(reportLines("flask 3.1.3 (PyPI sdist)", result).join("\n"));
    assertEquals(result.failures, [], "the server failed on some files");
    assertEquals(result.disagreements, [], "exact files that disagree with pyright");
    assertEquals(result.total.disagree, 0);
    // 79 of its 83 files: names declared twice, augmented assignments, `for`, `with` and `except`
    // targets, imports in functions, `global`, `nonlocal` and `__slots__` are modelled.
    assert(result.total.exact >= 70, `only ${result.total.exact} of ${result.files} are exact`);
  } finally {
    await Deno.remove(parent, { recursive: true }).catch(() => {});
  }
});

Deno.test({
  name: "declaration index: exact files are TypeScript 7's documentSymbol, but for its merge, " +
    "on Sextant's own sources",
  ignore: skipUnless(hasTypeScript7(), "TypeScript 7"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  // A copy of src/ (with no deno.json, so a TypeScript project) depending on TypeScript 7.
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-ts7-agreement-" }));
  try {
    const root = join(parent, "src");
    const copied = await new Deno.Command("cp", { args: ["-a", join(REPO_ROOT, "src"), root] })
      .output();
    assert(copied.success, "src/ could not be copied");
    await linkTypeScript7(root);
    const result = await agreement(root, { concurrency: 4 });
    console.log(reportLines("Sextant src/ on TypeScript 7", result).join("\n"));
    assertEquals(result.failures, [], "the server failed on some files");
    assertEquals([...result.typescriptServers].map((s) => s.split(" ")[0]), ["typescript-go"]);
    assertEquals(result.disagreements, [], "exact files that disagree with TypeScript 7");
    assertEquals(result.total.disagree, 0);
    assert(result.total.exact >= 100, `only ${result.total.exact} of ${result.files} are exact`);
    // Not vacuous: TypeScript 7's merge left properties out of many of them.
    assert(result.total.nativeMerged >= 10, `merged in ${result.total.nativeMerged} files`);
  } finally {
    await Deno.remove(parent, { recursive: true }).catch(() => {});
  }
});
