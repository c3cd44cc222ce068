/**
 * What a generated 10 MB `.gitignore` costs the service's one thread: the first verdicts of a
 * walk (20 paths of the root folder) with the bounded rules (src/project/ignore.ts: the first
 * 2,000 rules within 256 KB) beside the whole file given to `ignore` as before. Runs alone:
 *
 * ```sh
 * deno run -A scripts/profiles/large_gitignore.ts [--megabytes 10]
 * ```
 * @module
 */
import { parseArgs } from "node:util";
import { ignore } from "../../src/deps_start.ts";
import { IgnoreRules } from "../../src/project/ignore.ts";
import { setLogLevel } from "../../src/log.ts";

const { values } = parseArgs({ args: Deno.args, options: { megabytes: { type: "string" } } });
const bytes = Number(values.megabytes ?? "10") * 1_000_000;
setLogLevel("error");

const root = Deno.makeTempDirSync({ prefix: "sextant-gitignore-" });
try {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const line = `generated/path${i}/file_${i}.txt`;
    lines.push(line);
    size += line.length + 1;
  }
  const text = lines.join("\n");
  Deno.writeTextFileSync(`${root}/.gitignore`, text);
  const paths = Array.from({ length: 20 }, (_, i) => `src/file${i}.ts`);

  let started = performance.now();
  const rules = new IgnoreRules(root);
  for (const path of paths) rules.isIgnored(path, false);
  const bounded = performance.now() - started;

  started = performance.now();
  const whole = ignore().add(text);
  for (const path of paths) whole.test(path);
  const unbounded = performance.now() - started;

  console.log(`.gitignore of ${lines.length.toLocaleString("en")} rules, 20 verdicts:`);
  console.log(`  bounded (Sextant): ${bounded.toFixed(0)} ms`);
  console.log(`  whole file:        ${unbounded.toFixed(0)} ms`);
  console.log(`  notice: ${rules.notices()[0] ?? "none"}`);
} finally {
  Deno.removeSync(root, { recursive: true });
}
