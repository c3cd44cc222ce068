/**
 * The projects `deno task bench` measures: ONE parameterised generator of TypeScript projects
 * (used by bench/bench.ts, bench/engine.ts, bench/declaration_index.ts and bench/scale.ts) and the real trees,
 * fetched once through the registries' own clients into `.cache/bench/` at pinned versions:
 *
 * - `typeorm`: the npm package typeorm@0.3.20 (`npm pack`): compiled JavaScript with its `.d.ts`
 *   declarations and source maps (997 `.d.ts`, 999 `.js`, 997 `.js.map`; 2,996 files).
 * - `aws`: the Go module github.com/aws/aws-sdk-go@v1.55.5 (`go mod download`): 2,867 `.go`
 *   files among 5,506, 329 MB.
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../..", import.meta.url));
/** Generated modules are spread over this many folders. */
export const PACKAGES = 30;
/** The module every tenth generated module uses. */
export const CORE = "src/core.ts";
/** `Core` in `export class Core` (line 1 of core.ts). */
export const CORE_POS = { line: 1, character: 13 };

/** Project-relative path of generated module `i`. */
export function modPath(i: number): string {
  const pkg = `pkg${String(i % PACKAGES).padStart(2, "0")}`;
  return `src/${pkg}/mod${String(i).padStart(4, "0")}.ts`;
}

/**
 * Write a TypeScript project: `src/core.ts` plus `files` modules in {@linkcode PACKAGES}
 * folders. Module `i` declares `Options<i>`, `Widget<i>` (with `render` and `grow`) and
 * `makeWidget<i>`, imports its predecessor's widget, and every tenth module uses `Core` (an
 * import and a `new Core`: `Core` has `2 * ceil(files / 10)` references).
 */
export async function generate(
  root: string,
  files: number,
  options: { importStep?: number } = {},
): Promise<void> {
  // Module i imports module i - step: one chain by default; a step of PACKAGES makes one chain
  // per package, short enough for indexers that recurse along it (scip-typescript's checker
  // overflows its stack on a 50,000-module chain).
  const step = options.importStep ?? 1;
  for (let p = 0; p < PACKAGES; p++) {
    await Deno.mkdir(join(root, "src", `pkg${String(p).padStart(2, "0")}`), { recursive: true });
  }
  await Deno.writeTextFile(
    join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
      },
      include: ["src/**/*.ts"],
    }),
  );
  await Deno.writeTextFile(join(root, "package.json"), '{ "name": "bench", "private": true }\n');
  await Deno.writeTextFile(
    join(root, CORE),
    "/** The core every tenth module uses. */\nexport class Core {\n" +
      "  constructor(readonly name: string) {}\n\n  run(input: number): number {\n" +
      "    return input * 2;\n  }\n}\n\nexport interface Renderable {\n  render(): string;\n}\n",
  );
  const writes: Promise<void>[] = [];
  for (let i = 0; i < files; i++) {
    const lines: string[] = [`/** Generated module ${i}. */`];
    lines.push('import type { Renderable } from "../core.ts";');
    if (i % 10 === 0) lines.push('import { Core } from "../core.ts";');
    if (i >= step) {
      lines.push(`import { Widget${i - step} } from "../${modPath(i - step).slice(4)}";`);
    }
    lines.push("");
    lines.push(`export interface Options${i} {\n  size: number;\n  label: string;\n}`);
    lines.push("");
    lines.push(`export class Widget${i} implements Renderable {`);
    lines.push(`  private count = ${i};`);
    lines.push("");
    lines.push(`  constructor(readonly options: Options${i}) {}`);
    lines.push("");
    lines.push("  render(): string {");
    lines.push("    return `${this.options.label}:${this.count}`;");
    lines.push("  }");
    lines.push("");
    lines.push("  grow(by: number): number {");
    lines.push("    this.count += by;");
    lines.push("    return this.count;");
    lines.push("  }");
    lines.push("}");
    lines.push("");
    lines.push(`export function makeWidget${i}(label: string): Widget${i} {`);
    lines.push(`  return new Widget${i}({ size: ${i}, label });`);
    lines.push("}");
    if (i % 10 === 0) {
      lines.push("");
      lines.push(`export function useCore${i}(): number {`);
      lines.push(`  const core = new Core("m${i}");`);
      lines.push(`  return core.run(${i});`);
      lines.push("}");
    }
    if (i >= step) {
      lines.push("");
      lines.push(`export const previous${i} = new Widget${i - step}({ size: 1, label: "p" });`);
    }
    writes.push(Deno.writeTextFile(join(root, modPath(i)), lines.join("\n") + "\n"));
    if (writes.length >= 64) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
}

/** A project the scale rows measure, and the symbol its rows ask about. */
export interface BenchTree {
  /** Row label, e.g. "generated 3001" or "typeorm@0.3.20". */
  name: string;
  /** Absolute project root (a copy the benchmark may write `.sextant/` into). */
  root: string;
  /** Server id in the registry ("typescript", "go"). */
  server: string;
  /** File declaring the symbol, and the symbol's name (a unique class or type). */
  file: string;
  symbol: string;
  /** Files under the root. */
  files: number;
  /** Remove the copy. */
  dispose(): Promise<void>;
}

/** Count the files under `dir`. */
export async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) n += await countFiles(join(dir, e.name));
    else if (e.isFile) n++;
  }
  return n;
}

async function tempRoot(prefix: string): Promise<{ parent: string; root: string }> {
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix }));
  return { parent, root: join(parent, "project") };
}

/** A generated project of `files` modules (plus core.ts) in a temporary folder. */
export async function generatedTree(files: number): Promise<BenchTree> {
  const { parent, root } = await tempRoot("sextant-bench-");
  await generate(root, files);
  return {
    name: `generated ${files + 1}`,
    root,
    server: "typescript",
    file: CORE,
    symbol: "Core",
    files: files + 1,
    dispose: () => Deno.remove(parent, { recursive: true }).catch(() => {}),
  };
}

/** The download cache of the real trees. */
export const CACHE = join(REPO, ".cache", "bench");

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, { args, cwd, env, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Copy a folder (cp -a; the copies are what a session writes its caches into). */
async function copyTree(from: string, to: string): Promise<void> {
  await run("cp", ["-a", from, to], "/");
  await run("chmod", ["-R", "u+w", to], "/");
}

export const TYPEORM_VERSION = "0.3.20";
export const AWS_VERSION = "v1.55.5";
/** Go's module cache for the benchmark (aws-sdk-go and its one dependency). */
export const GOMODCACHE = join(CACHE, "gomod");

/** typeorm from npm at the pinned version, unpacked once into the cache, copied per run. */
export async function typeormTree(): Promise<BenchTree> {
  const dir = join(CACHE, `typeorm-${TYPEORM_VERSION}`);
  if (!await exists(join(dir, "package", "package.json"))) {
    await Deno.mkdir(dir, { recursive: true });
    await run("npm", ["pack", `typeorm@${TYPEORM_VERSION}`], CACHE);
    await run("tar", ["xzf", join(CACHE, `typeorm-${TYPEORM_VERSION}.tgz`), "-C", dir], CACHE);
  }
  const { parent, root } = await tempRoot("sextant-bench-typeorm-");
  await copyTree(join(dir, "package"), root);
  return {
    name: `typeorm@${TYPEORM_VERSION}`,
    root,
    server: "typescript",
    file: "repository/Repository.d.ts",
    symbol: "Repository",
    files: await countFiles(root),
    dispose: () => Deno.remove(parent, { recursive: true }).catch(() => {}),
  };
}

/** github.com/aws/aws-sdk-go at the pinned version through the Go module proxy, copied per run. */
export async function awsTree(): Promise<BenchTree> {
  const env = { GOMODCACHE, GOFLAGS: "-modcacherw" };
  const dir = join(GOMODCACHE, "github.com", "aws", `aws-sdk-go@${AWS_VERSION}`);
  if (!await exists(join(dir, "go.mod"))) {
    await Deno.mkdir(CACHE, { recursive: true });
    await run("go", ["mod", "download", `github.com/aws/aws-sdk-go@${AWS_VERSION}`], CACHE, env);
  }
  const { parent, root } = await tempRoot("sextant-bench-aws-");
  await copyTree(dir, root);
  // Its one dependency, into the same module cache, so gopls loads without the network.
  await run("go", ["mod", "download"], root, env);
  return {
    name: `aws-sdk-go@${AWS_VERSION}`,
    root,
    server: "go",
    file: "aws/session/session.go",
    symbol: "Session",
    files: await countFiles(root),
    dispose: () => Deno.remove(parent, { recursive: true }).catch(() => {}),
  };
}

/** Line and character of the declaration of `symbol` in `text` (its first whole-word use). */
export function declarationPosition(text: string, symbol: string): {
  line: number;
  character: number;
} {
  const re = new RegExp(`\\b(class|interface|type|struct|fn|func|enum)\\s+${symbol}\\b`);
  const lines = text.split("\n");
  for (let line = 0; line < lines.length; line++) {
    const m = re.exec(lines[line]!);
    if (m) return { line, character: m.index + m[0].length - symbol.length };
  }
  throw new Error(`no declaration of ${symbol}`);
}
