/**
 * dependency_graph: how the project's units (Ada units, modules, packages, files) depend on
 * each other, read from their import lines (toolchain/graph/).
 * @module
 */
import { z } from "../../deps.ts";
import { buildDependencyGraph } from "../../toolchain/graph/graph.ts";
import { defineTool } from "../tool.ts";

export const dependencyGraph = defineTool({
  name: "dependency_graph",
  description: "Module dependency graph as JSON {nodes, edges}: Ada with clauses between units, " +
    "TypeScript/JavaScript relative imports, Python imports of project modules, Rust mod and " +
    "crate:: paths, Go imports within the module. relative_path limits it to a folder, or to " +
    "what one file depends on (transitively) and what depends on it. Reads files only.",
  params: {
    relative_path: z.string().default("").describe(
      "A folder to limit the graph to, or a file to centre it on; empty for the whole project.",
    ),
    include_external: z.boolean().default(false).describe(
      "Also show imports of modules outside the project (standard library, packages).",
    ),
    max_answer_chars: z.number().int().default(-1),
  },
  markers: ["optional"],
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const graph = await buildDependencyGraph(project, {
      relativePath: args.relative_path,
      includeExternal: args.include_external,
      signal: ctx.signal,
    });
    const compact = () => {
      const adjacency: Record<string, string[]> = {};
      for (const edge of graph.edges) (adjacency[edge.from] ??= []).push(edge.to);
      return JSON.stringify({ languages: graph.languages, depends_on: adjacency });
    };
    return {
      text: JSON.stringify(graph),
      shorter: [{
        note: "(compact form: node -> dependencies, to fit max_answer_chars)",
        text: compact,
      }],
    };
  },
});
