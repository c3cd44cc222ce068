/**
 * think_about_whether_you_are_done: a thinking tool's fixed guidance (prompts/workflow.ts).
 * @module
 */
import { THINK_ABOUT_WHETHER_YOU_ARE_DONE } from "../../prompts/workflow.ts";
import { guidanceTool } from "./guidance_tool.ts";

export const thinkAboutWhetherYouAreDone = guidanceTool(
  "think_about_whether_you_are_done",
  "Thinking tool: checks whether the task is really complete. Call it whenever you believe " +
    "you are done.",
  THINK_ABOUT_WHETHER_YOU_ARE_DONE,
  // Optional since Serena 1.7: canned text that costs every conversation ~350 characters.
  true,
);
