/**
 * onboarding: Serena's instructions for learning the project and saving memories (the text is
 * in prompts/workflow.ts). The other workflow tools each have their file in this folder:
 * check_onboarding_performed, the thinking tools, summarize_changes, prepare_for_new_conversation
 * and initial_instructions.
 * @module
 */
import { ONBOARDING_WITHOUT_MEMORIES, onboardingPrompt } from "../../prompts/workflow.ts";
import { defineTool } from "../tool.ts";
import { isActive } from "./active_tools.ts";

export const onboarding = defineTool({
  name: "onboarding",
  description: "Instructions for learning the project and saving memories; once per " +
    "project.",
  params: {},
  readOnly: true,
  handler(_args, ctx) {
    const project = ctx.project();
    if (!isActive(ctx.session, "write_memory")) return Promise.resolve(ONBOARDING_WITHOUT_MEMORIES);
    return Promise.resolve(onboardingPrompt(project.name));
  },
});
