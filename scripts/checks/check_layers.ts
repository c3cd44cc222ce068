/**
 * Fails when an import under src/ runs up the layers of docs/ARCHITECTURE.md §1, or when files
 * import each other in a cycle. It reads every module's imports from Deno's own module graph
 * (`deno info --json`, which knows type-only and dynamic imports), tests excluded: a test may
 * reach any layer.
 *
 *     deno run --allow-read --allow-run scripts/checks/check_layers.ts
 *
 * `deno task check` runs it.
 * @module
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The layers, top first. A file may import its own layer and any layer below it, never one
 * above. A file belongs to the first layer with a prefix of its path (relative to the
 * repository); a prefix ending in `/` is a folder. Order the more specific prefixes first.
 */
export const LAYERS: ReadonlyArray<{ name: string; paths: readonly string[] }> = [
  { name: "the entry point", paths: ["main.ts"] },
  { name: "commands and the stdio front", paths: ["src/cli/"] },
  { name: "the shared service", paths: ["src/service/"] },
  // The service publishes to the dashboard's hub; the dashboard reads the projects below it.
  { name: "the service's dashboard", paths: ["src/dashboard/"] },
  { name: "MCP wiring", paths: ["src/mcp/"] },
  { name: "the tools", paths: ["src/tools/"] },
  { name: "the prompts", paths: ["src/prompts/"] },
  // A session holds its tools as what selection reads of them (config/tool_selection.ts), so it
  // sits below the tools it is handed to.
  { name: "the session", paths: ["src/session/"] },
  { name: "code mode's sandbox", paths: ["src/repl/"] },
  { name: "the project host", paths: ["src/project_host.ts"] },
  {
    name: "symbol lookup",
    paths: [
      "src/symbols/lookup.ts",
      "src/symbols/queries.ts",
      "src/symbols/completeness.ts",
    ],
  },
  { name: "the declaration index", paths: ["src/symbols/index/"] },
  // The whole symbol floor sits above the engine: lsp/ knows nothing of symbols.
  { name: "the symbol model", paths: ["src/symbols/"] },
  { name: "the language-server engine and the toolchains", paths: ["src/lsp/", "src/toolchain/"] },
  { name: "projects", paths: ["src/project/"] },
  { name: "settings", paths: ["src/config/"] },
  { name: "editing primitives", paths: ["src/edit/"] },
  {
    name: "the base",
    paths: [
      "src/errors.ts",
      "src/bytes.ts",
      "src/sha.ts",
      "src/log.ts",
      "src/process.ts",
      "src/runtime_folder.ts",
      "src/executables.ts",
      "src/own_child.ts",
      "src/own_files.ts",
      "src/lsp_path.ts",
      "src/plain_path.ts",
      "src/map_limit.ts",
      "src/turns.ts",
      "src/deps.ts",
      "src/deps_start.ts",
      "src/deps_http.ts",
      "src/deps_lsp.ts",
      "src/version.ts",
    ],
  },
];

/** One relative import of a module. */
export interface Import {
  from: string;
  to: string;
  line: number;
  /** `import type`, or every name imported with `type`: nothing is loaded. */
  typeOnly: boolean;
  /** `import("...")`: loaded when the code runs, not with the module. */
  dynamic: boolean;
}

/** Where `deno info --json` says a dependency resolves, and on which line it is imported. */
interface InfoResolution {
  specifier: string;
  span: { start: { line: number } };
}

/** One module of `deno info --json`, with the fields read here. */
export interface InfoModule {
  specifier: string;
  dependencies?: ReadonlyArray<{
    specifier: string;
    /** What loads at run time; absent for a type-only import. */
    code?: InfoResolution;
    type?: InfoResolution;
    isDynamic?: boolean;
  }>;
}

/** The repository-relative path of a `file:` URL below `root`; null for anything else. */
function pathIn(root: string, specifier: string): string | null {
  if (!specifier.startsWith("file:")) return null;
  const rel = relative(root, fileURLToPath(specifier)).split("\\").join("/");
  return rel.startsWith("..") ? null : rel;
}

/** The imports between the repository's own files, from `deno info --json`'s modules. */
export function importsOf(root: string, modules: readonly InfoModule[]): Import[] {
  const out: Import[] = [];
  for (const module of modules) {
    const from = pathIn(root, module.specifier);
    if (from === null) continue;
    for (const dep of module.dependencies ?? []) {
      const resolved = dep.code ?? dep.type;
      const to = resolved && pathIn(root, resolved.specifier);
      if (!to) continue;
      out.push({
        from,
        to,
        line: resolved.span.start.line + 1,
        typeOnly: dep.code === undefined,
        dynamic: dep.isDynamic ?? false,
      });
    }
  }
  return out;
}

/** The modules of the graph of `entry`, as `deno info --json` gives them. */
export async function moduleGraph(root: string, entry: string): Promise<InfoModule[]> {
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (error) {
    if (
      !(error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied)
    ) {
      throw error;
    }
    throw new Error(
      "the layer check reads Deno's module graph with `deno info`: run it with --allow-run " +
        "(deno run --allow-read --allow-run scripts/checks/check_layers.ts, or deno task check)",
    );
  }
  if (!output.success) {
    throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return JSON.parse(new TextDecoder().decode(output.stdout)).modules;
}

/** The index in {@linkcode LAYERS} of a file, or -1 when it is in none. */
export function layerOf(path: string): number {
  return LAYERS.findIndex((layer) =>
    layer.paths.some((p) => p.endsWith("/") ? path.startsWith(p) : path === p)
  );
}

/** The imports that run up the layers, and the files in no layer. */
export function upwardImports(imports: readonly Import[]): string[] {
  const problems: string[] = [];
  for (const i of imports) {
    const from = layerOf(i.from);
    const to = layerOf(i.to);
    if (from === -1) problems.push(`${i.from} is in no layer (add it to LAYERS)`);
    else if (to === -1) problems.push(`${i.from}:${i.line} imports ${i.to}, which is in no layer`);
    else if (to < from) {
      problems.push(
        `${i.from}:${i.line} imports ${i.to}: "${LAYERS[from]!.name}" may not import ` +
          `"${LAYERS[to]!.name}", a layer above it`,
      );
    }
  }
  return [...new Set(problems)];
}

/**
 * The import cycles between files: each set of files that import each other (a strongly
 * connected component of the static imports). Type-only imports count: two files that name each
 * other's types are one concept split in two, even though loading them loads nothing. Dynamic
 * imports do not count: they load later, on purpose (that is how `initialize` is answered
 * without the tools).
 */
export function importCycles(imports: readonly Import[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const i of imports) {
    if (i.dynamic || i.from === i.to) continue;
    const list = edges.get(i.from) ?? [];
    if (!list.includes(i.to)) list.push(i.to);
    edges.set(i.from, list);
  }
  // Tarjan's strongly connected components; a component of two or more files is a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

async function sourceFiles(root: string, dir: string, out: string[] = []): Promise<string[]> {
  for await (const entry of Deno.readDir(join(root, dir))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await sourceFiles(root, path, out);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** The problems of the repository at `root`: its upward imports and its import cycles. */
export async function checkRepository(
  root: string,
): Promise<{ files: number; imports: number; upward: string[]; cycles: string[][] }> {
  const files = ["main.ts", ...(await sourceFiles(root, "src")).sort()];
  const modules = new Map<string, InfoModule>();
  const add = (graph: readonly InfoModule[]) => {
    for (const m of graph) if (!modules.has(m.specifier)) modules.set(m.specifier, m);
  };
  add(await moduleGraph(root, "main.ts"));
  // A module main.ts never imports (a worker's, loaded by URL) is read from itself.
  const reached = new Set([...modules.keys()].map((s) => pathIn(root, s)));
  for (const file of files) if (!reached.has(file)) add(await moduleGraph(root, file));
  const own = new Set(files);
  const imports = importsOf(root, [...modules.values()]).filter((i) => own.has(i.from));
  return {
    files: files.length,
    imports: imports.length,
    upward: upwardImports(imports),
    cycles: importCycles(imports),
  };
}

if (import.meta.main) {
  const root = relative(Deno.cwd(), new URL("../..", import.meta.url).pathname) || ".";
  const { files, imports, upward, cycles } = await checkRepository(root);
  for (const problem of upward) console.error(`upward import: ${problem}`);
  for (const cycle of cycles) console.error(`import cycle: ${cycle.join(" <-> ")}`);
  if (upward.length > 0 || cycles.length > 0) {
    console.error(
      `${upward.length} upward imports, ${cycles.length} import cycles ` +
        "(the layers: scripts/checks/check_layers.ts LAYERS, docs/ARCHITECTURE.md §1)",
    );
    Deno.exit(1);
  }
  console.log(`layers: ${files} modules, ${imports} imports, none upward, no cycle`);
}
