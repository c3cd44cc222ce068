/**
 * dependency_graph's content: the project's source files by language, each language's imports
 * as nodes and edges, optionally narrowed to a folder or centred on one file.
 * @module
 */
import { extname } from "node:path";
import { ToolError } from "../../errors.ts";
import type { Project } from "../../project/project.ts";
import { projectNaming } from "../ada/ada_project.ts";
import {
  adaGraph,
  goGraph,
  GraphBuilder,
  type GraphEdge,
  type GraphNode,
  jsGraph,
  pythonGraph,
  type ReadFile,
  rustGraph,
} from "./language_graphs.ts";

export type { GraphEdge, GraphNode } from "./language_graphs.ts";

/** The graph as the tool returns it. */
export interface DependencyGraph {
  languages: string[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Set when the scan stopped early. */
  note?: string;
}

/** Options of {@linkcode buildDependencyGraph}. */
export interface GraphOptions {
  /** A folder to limit the graph to, or a file to centre it on ("" for everything). */
  relativePath?: string;
  /** Add nodes for modules outside the project. */
  includeExternal?: boolean;
  signal?: AbortSignal;
}

/** More files than this are not read (the graph says so). */
const MAX_FILES = 20_000;

const JS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);

/**
 * The module dependency graph of a project: Ada units, TypeScript/JavaScript files, Python
 * modules, Rust files and Go packages, with edges for their imports.
 */
export async function buildDependencyGraph(
  project: Project,
  options: GraphOptions = {},
): Promise<DependencyGraph> {
  const focus = options.relativePath ? project.resolve(options.relativePath) : null;
  const focusIsFile = focus !== null && focus.exists && Deno.statSync(focus.real).isFile;
  if (focus && !focus.exists) {
    throw new ToolError(
      `No file or folder '${options.relativePath}' in project '${project.name}'.`,
    );
  }
  const naming = projectNaming(project.root);
  const byLanguage: Record<string, string[]> = {
    ada: [],
    typescript: [],
    python: [],
    rust: [],
    go: [],
  };
  let count = 0;
  let truncated = false;
  for await (const entry of project.walk(".", { signal: options.signal })) {
    if (entry.isDirectory) continue;
    const lower = entry.path.toLowerCase();
    const ext = extname(lower);
    const language = lower.endsWith(naming.specSuffix) || lower.endsWith(naming.bodySuffix) ||
        ext === ".ads" || ext === ".adb"
      ? "ada"
      : JS.has(ext) && !lower.endsWith(".d.ts")
      ? "typescript"
      : ext === ".py" || ext === ".pyi"
      ? "python"
      : ext === ".rs"
      ? "rust"
      : ext === ".go"
      ? "go"
      : null;
    if (!language) continue;
    if (++count > MAX_FILES) {
      truncated = true;
      break;
    }
    byLanguage[language]!.push(entry.path);
  }
  const read: ReadFile = async (path) => {
    options.signal?.throwIfAborted();
    try {
      return (await project.readText(project.resolve(path, { requireNotIgnored: false }))).text;
    } catch {
      return null;
    }
  };
  const graph = new GraphBuilder();
  const external = options.includeExternal ?? false;
  if (byLanguage.ada!.length) await adaGraph(byLanguage.ada!, read, graph, external);
  if (byLanguage.typescript!.length) await jsGraph(byLanguage.typescript!, read, graph, external);
  if (byLanguage.python!.length) await pythonGraph(byLanguage.python!, read, graph, external);
  if (byLanguage.rust!.length) await rustGraph(byLanguage.rust!, read, graph);
  if (byLanguage.go!.length) await goGraph(byLanguage.go!, read, graph, external);

  let nodes = [...graph.nodes.values()];
  let edges = graph.edges;
  if (focus && focus.relative !== ".") {
    const inFocus = (node: GraphNode) =>
      [node.file, ...(node.files ?? [])].some((f) =>
        f !== undefined &&
        (focusIsFile ? f === focus.relative : f.startsWith(`${focus.relative}/`))
      );
    const keep = new Set(nodes.filter(inFocus).map((n) => n.id));
    if (keep.size === 0) {
      throw new ToolError(
        `'${focus.relative}' holds no source file of a language the graph knows (Ada, ` +
          "TypeScript/JavaScript, Python, Rust, Go).",
      );
    }
    if (focusIsFile) {
      // What the file depends on, transitively, and what depends on it directly.
      const start = [...keep];
      const queue = [...start];
      while (queue.length) {
        const id = queue.shift()!;
        for (const e of edges) {
          if (e.from === id && !keep.has(e.to)) {
            keep.add(e.to);
            queue.push(e.to);
          }
        }
      }
      for (const e of edges) if (start.includes(e.to)) keep.add(e.from);
      edges = edges.filter((e) => keep.has(e.from) && keep.has(e.to));
    } else {
      // Inside the folder, plus the external modules it uses.
      edges = edges.filter((e) =>
        keep.has(e.from) && (keep.has(e.to) || graph.nodes.get(e.to)?.external)
      );
      for (const e of edges) keep.add(e.to);
    }
    nodes = nodes.filter((n) => keep.has(n.id));
  }
  const languages = [...new Set(nodes.map((n) => n.language))];
  const result: DependencyGraph = { languages, nodes, edges };
  if (truncated) result.note = `Only the first ${MAX_FILES} source files were read.`;
  return result;
}
