/**
 * summarize_changes: fixed instructions for summarizing the changes for the user
 * (prompts/workflow.ts).
 * @module
 */
import { SUMMARIZE_CHANGES } from "../../prompts/workflow.ts";
import { guidanceTool } from "./guidance_tool.ts";

export const summarizeChanges = guidanceTool(
  "summarize_changes",
  "Returns instructions for summarizing your changes for the user. Call it after a non-trivial " +
    "coding task, once think_about_whether_you_are_done is satisfied.",
  SUMMARIZE_CHANGES,
  true,
);
