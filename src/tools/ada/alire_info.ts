/**
 * alire_info: the project's alire.toml.
 * @module
 */
import { ToolError } from "../../errors.ts";
import { readAlire } from "../../toolchain/ada/ada_project.ts";
import { defineTool } from "../tool.ts";

export const alireInfo = defineTool({
  name: "alire_info",
  description: "Ada: reads the project's Alire manifest (alire.toml) and returns JSON: " +
    "isAlireProject, crateName, version, description, authors, licenses, dependencies " +
    "[{name, version}], buildProfile, toolchain, executables, projectFiles.",
  params: {},
  markers: ["optional"],
  readOnly: true,
  handler(_args, ctx) {
    const project = ctx.project();
    let info;
    try {
      info = readAlire(project.root);
    } catch (error) {
      throw new ToolError(`alire.toml is not valid TOML: ${(error as Error).message}`);
    }
    return Promise.resolve(JSON.stringify(info ?? { isAlireProject: false }));
  },
});
