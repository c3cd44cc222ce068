/**
 * `sextant index build`: runs the SCIP indexer of each of the project's languages, joins their
 * indexes into one (`.sextant/index.scip` by default) and writes its manifest beside it (the git
 * blob id of every indexed file, see symbols/scip/freshness.ts), so that Sextant answers from it
 * only for files unchanged since. The indexers come from npm through `npm exec` (nothing is
 * installed globally) or, for Rust, from rust-analyzer itself:
 *
 * - TypeScript and JavaScript: `@sourcegraph/scip-typescript`. A project without a tsconfig.json
 *   is given one for the run and no longer ({@linkcode withTsconfig}): with `allowJs` when it has
 *   JavaScript, which the language server reads too (scip-typescript's own `--infer-tsconfig`
 *   leaves JavaScript out as soon as one `.ts` or `.d.ts` file exists, and leaves its tsconfig
 *   behind);
 * - Python: `@sourcegraph/scip-python`;
 * - Rust: `rust-analyzer scip`.
 *
 * Protobuf merges two serialized messages by appending their repeated fields, so the joined
 * index is the partial indexes one after the other: the same holds for indexes built by parallel
 * CI jobs (docs/scale.md).
 * @module
 */
import { dirname, join, relative } from "node:path";
import { readScipIndex } from "./decode.ts";
import { formatManifest, gitBlobId, manifestPath } from "./freshness.ts";
import { runCommand } from "../../toolchain/run.ts";

/** The pinned indexers. */
export const INDEXERS = {
  typescript: { package: "@sourcegraph/scip-typescript", version: "0.4.0" },
  python: { package: "@sourcegraph/scip-python", version: "0.6.6" },
} as const;

export type IndexLanguage = "typescript" | "python" | "rust";

/** One indexer's run, for the report. */
export interface IndexerRun {
  language: IndexLanguage;
  argv: string[];
  ok: boolean;
  documents: number;
  seconds: number;
  /** The indexer's last lines of output when it failed. */
  tail?: string[];
}

export interface BuildResult {
  output: string;
  manifest: string;
  runs: IndexerRun[];
  documents: number;
}

export interface BuildOptions {
  /** Where the joined index goes (default: `<root>/.sextant/index.scip`). */
  output?: string;
  /** Only these languages (default: every one the project has). */
  languages?: readonly IndexLanguage[];
  /** Told of each step. */
  onStep?: (message: string) => void;
  signal?: AbortSignal;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function hasFileWith(
  root: string,
  extensions: readonly string[],
  depth = 3,
): Promise<boolean> {
  const skip = new Set(["node_modules", ".git", ".sextant", ".venv", "venv", "target", "dist"]);
  const walk = async (dir: string, level: number): Promise<boolean> => {
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (entry.isFile && extensions.some((e) => entry.name.endsWith(e))) return true;
        if (entry.isDirectory && level < depth && !skip.has(entry.name)) {
          if (await walk(join(dir, entry.name), level + 1)) return true;
        }
      }
    } catch {
      // An unreadable folder holds nothing we can index.
    }
    return false;
  };
  return await walk(root, 0);
}

/** The languages of the project that have an indexer. */
export async function indexLanguages(root: string): Promise<IndexLanguage[]> {
  const out: IndexLanguage[] = [];
  if (
    await exists(join(root, "tsconfig.json")) ||
    await hasFileWith(root, [".ts", ".tsx", ".mts", ".cts"])
  ) out.push("typescript");
  if (
    await exists(join(root, "pyproject.toml")) || await exists(join(root, "setup.py")) ||
    await hasFileWith(root, [".py"])
  ) out.push("python");
  if (await exists(join(root, "Cargo.toml"))) out.push("rust");
  return out;
}

function indexerArgv(
  root: string,
  language: IndexLanguage,
  output: string,
): { argv: string[]; cwd: string } {
  if (language === "typescript") {
    const { package: pkg, version } = INDEXERS.typescript;
    return {
      argv: [
        "npm",
        "exec",
        "--yes",
        `--package=${pkg}@${version}`,
        "--",
        "scip-typescript",
        "index",
        "--output",
        output,
      ],
      cwd: root,
    };
  }
  if (language === "python") {
    const { package: pkg, version } = INDEXERS.python;
    // scip-python fails on a project without a version: any name and version will do, they
    // only label the symbols.
    return {
      argv: [
        "npm",
        "exec",
        "--yes",
        `--package=${pkg}@${version}`,
        "--",
        "scip-python",
        "index",
        "--project-name",
        "project",
        "--project-version",
        "0",
        "--output",
        output,
        ".",
      ],
      cwd: root,
    };
  }
  return { argv: ["rust-analyzer", "scip", root, "--output", output], cwd: root };
}

/**
 * Runs `run` with a tsconfig.json at the root when TypeScript is indexed and the project has
 * none: `allowJs` when it has JavaScript files (so the index covers what the language server
 * answers for), removed afterwards, whatever happens.
 */
async function withTsconfig<T>(
  root: string,
  language: IndexLanguage,
  run: () => Promise<T>,
): Promise<T> {
  const tsconfig = join(root, "tsconfig.json");
  if (language !== "typescript" || await exists(tsconfig)) return await run();
  const js = await hasFileWith(root, [".js", ".jsx", ".mjs", ".cjs"], Infinity);
  await Deno.writeTextFile(
    tsconfig,
    JSON.stringify(js ? { compilerOptions: { allowJs: true } } : {}),
    { createNew: true },
  );
  try {
    return await run();
  } finally {
    await Deno.remove(tsconfig).catch(() => {});
  }
}

async function countDocuments(path: string): Promise<string[]> {
  const paths: string[] = [];
  await readScipIndex(path, { document: (d) => paths.push(d.relativePath) });
  return paths;
}

/** Runs the indexers, joins their indexes, writes the manifest. */
export async function buildIndex(root: string, options: BuildOptions = {}): Promise<BuildResult> {
  const output = options.output ?? join(root, ".sextant", "index.scip");
  const languages = options.languages ?? await indexLanguages(root);
  if (languages.length === 0) {
    throw new Error(
      "No language of this project has a SCIP indexer Sextant can run (TypeScript/JavaScript, " +
        "Python, Rust).",
    );
  }
  await Deno.mkdir(dirname(output), { recursive: true });
  const parts: string[] = [];
  const runs: IndexerRun[] = [];
  const scratch = await Deno.makeTempDir({ dir: dirname(output), prefix: ".index-build-" });
  try {
    for (const language of languages) {
      const part = join(scratch, `${language}.scip`);
      const { argv, cwd } = indexerArgv(root, language, part);
      options.onStep?.(`indexing ${language}: ${argv.join(" ")}`);
      const started = performance.now();
      let ok = false;
      let tail: string[] | undefined;
      try {
        const result = await withTsconfig(root, language, () =>
          runCommand(argv, {
            cwd,
            ...(options.signal ? { signal: options.signal } : {}),
            // npm exec of a package not cached yet asks nothing with --yes; CI=1 keeps the
            // indexers from drawing progress bars into the captured output.
            env: { CI: "1", NO_COLOR: "1" },
          }));
        ok = result.code === 0 && await exists(part);
        if (!ok) tail = result.tail.slice(-15);
      } catch (error) {
        tail = [error instanceof Error ? error.message : String(error)];
      }
      const documents = ok ? (await countDocuments(part)).length : 0;
      runs.push({
        language,
        argv,
        ok,
        documents,
        seconds: Math.round((performance.now() - started) / 100) / 10,
        ...(tail ? { tail } : {}),
      });
      if (ok) parts.push(part);
    }
    if (parts.length === 0) {
      throw new Error(
        "Every indexer failed:\n" +
          runs.map((r) => `${r.language}: ${(r.tail ?? []).join("\n  ")}`).join("\n"),
      );
    }
    const joined = join(scratch, "index.scip");
    await joinIndexes(parts, joined);
    const paths = await countDocuments(joined);
    const blobs = new Map<string, string>();
    for (const rel of paths) {
      try {
        blobs.set(rel, await gitBlobId(await Deno.readFile(join(root, rel))));
      } catch {
        // An indexed file that is gone already: it is stale from the start.
      }
    }
    // The manifest first, then the index: a reader that sees the new index finds its manifest.
    await Deno.writeTextFile(manifestPath(joined), formatManifest(blobs));
    await Deno.rename(manifestPath(joined), manifestPath(output));
    await Deno.rename(joined, output);
    return { output, manifest: manifestPath(output), runs, documents: paths.length };
  } finally {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

/** Writes the indexes `parts` one after the other into `output`: one index with all documents. */
export async function joinIndexes(parts: readonly string[], output: string): Promise<void> {
  const out = await Deno.open(output, { write: true, create: true, truncate: true });
  try {
    for (const part of parts) {
      const input = await Deno.open(part, { read: true });
      await input.readable.pipeTo(out.writable, { preventClose: true });
    }
  } finally {
    out.close();
  }
}

/** A report of a build for the command line. */
export function describeBuild(root: string, result: BuildResult): string {
  const lines = result.runs.map((r) =>
    r.ok
      ? `  ${r.language}: ${r.documents} documents in ${r.seconds} s`
      : `  ${r.language}: failed after ${r.seconds} s\n    ${(r.tail ?? []).join("\n    ")}`
  );
  return [
    `Wrote ${relative(root, result.output) || result.output} (${result.documents} documents) ` +
    `and its manifest ${relative(root, result.manifest)}.`,
    ...lines,
  ].join("\n");
}
