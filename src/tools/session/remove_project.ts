/**
 * remove_project: forgets a registered project (the global config's entry; its files are not
 * touched).
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { unregisterProject } from "../../config/global_config.ts";
import { globalConfigPath } from "../../config/load.ts";
import { defineTool } from "../tool.ts";
import { realPathOrNull } from "../../project/open_project.ts";

export const removeProject = defineTool({
  name: "remove_project",
  description: "Removes a project from the registered projects in the global config (its " +
    "files are not touched).",
  params: { project_name: z.string().min(1).describe("Name of the registered project.") },
  markers: ["optional", "no-project"],
  readOnly: false,
  destructive: false,
  async handler(args, ctx) {
    const file = globalConfigPath();
    if (!file) throw new ToolError("No global config file: set XDG_CONFIG_HOME or HOME.");
    const removed = await unregisterProject(file, args.project_name);
    const stillActive = ctx.session.project?.root === realPathOrNull(removed.path)
      ? " It stays active in this session."
      : "";
    return `Successfully removed project '${removed.name}' (${removed.path}) from ${file}. ` +
      `Its files were not touched.${stillActive}`;
  },
});
