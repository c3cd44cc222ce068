/**
 * project_info: what the manifests say about the project's build setup, per toolchain.
 * @module
 */
import { projectInfo } from "../../toolchain/manifest.ts";
import { defineTool } from "../tool.ts";
import { projectNameParam } from "../shared/params.ts";
import { selectProject } from "../shared/project_selection.ts";

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
