/**
 * think_about_collected_information: a thinking tool's fixed guidance (prompts/workflow.ts).
 * @module
 */
import { THINK_ABOUT_COLLECTED_INFORMATION } from "../../prompts/workflow.ts";
import { guidanceTool } from "./guidance_tool.ts";

export const thinkAboutCollectedInformation = guidanceTool(
  "think_about_collected_information",
  "Thinking tool: checks whether the information collected is complete and correct. Call it " +
    "after a non-trivial series of searches or reads.",
  THINK_ABOUT_COLLECTED_INFORMATION,
  // Optional since Serena 1.7: canned text that costs every conversation ~350 characters.
  true,
);
