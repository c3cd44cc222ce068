/**
 * project_info and dependency_graph: what the manifests say, and how units depend on each other.
 * @module
 */
import { z } from "../../deps.ts";
import { buildDependencyGraph } from "../../toolchain/graph/graph.ts";
import { projectInfo } from "../../toolchain/manifest.ts";
import { defineTool } from "../tool.ts";
import { projectNameParam } from "../shared/params.ts";
import { selectProject } from "../shared/projects.ts";

export const projectInfoTool = defineTool({
  name: "project_info",
  description: "The project's build setup per toolchain (Cargo.toml, package.json, deno.json, " +
    "tsconfig.json, pyproject.toml, go.mod, GPR, alire.toml) as JSON.",
  params: { project_name: projectNameParam },
  readOnly: true,
  handler(args, ctx) {
    const project = selectProject(ctx, args.project_name);
    return Promise.resolve(JSON.stringify(projectInfo(project.root, project.name)));
  },
});

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
