/**
 * think_about_task_adherence: a thinking tool's fixed guidance (prompts/workflow.ts).
 * @module
 */
import { THINK_ABOUT_TASK_ADHERENCE } from "../../prompts/workflow.ts";
import { guidanceTool } from "./guidance_tool.ts";

export const thinkAboutTaskAdherence = guidanceTool(
  "think_about_task_adherence",
  "Thinking tool: checks that you are still on the task. Call it before inserting, replacing " +
    "or deleting code.",
  THINK_ABOUT_TASK_ADHERENCE,
  // Optional since Serena 1.7: canned text that costs every conversation ~350 characters.
  true,
);
