/**
 * initial_instructions: the instructions manual (the system prompt), with the project's
 * activation message the first time in a session, as Serena gives it.
 * @module
 */
import { systemPrompt } from "../../prompts/system.ts";
import { activationMessageOnce } from "./activate_project.ts";
import { defineTool } from "../tool.ts";

export const initialInstructions = defineTool({
  name: "initial_instructions",
  description: "The 'Sextant Instructions Manual' on using the tools well; call it first if " +
    "not read yet.",
  params: {},
  markers: ["no-project"],
  readOnly: true,
  async handler(_args, ctx) {
    // Serena adds the project's activation message the first time in a session, before the
    // closing session id.
    const manual = systemPrompt(ctx.session);
    const activation = await activationMessageOnce(ctx);
    if (activation.length === 0) return manual;
    const at = manual.lastIndexOf("\n\nYour session id is");
    const cut = at === -1 ? manual.length : at;
    return `${manual.slice(0, cut)}\n\n${activation.join("\n")}${manual.slice(cut)}`;
  },
});
