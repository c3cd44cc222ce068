/**
 * Serena's workflow tools: onboarding, the thinking tools, summaries, hand-over, and
 * initial_instructions. They return guidance texts (prompts/workflow.ts), not data.
 * @module
 */
import { systemPrompt } from "../../prompts/system.ts";
import {
  ONBOARDING_WITHOUT_MEMORIES,
  onboardingNotPerformed,
  onboardingPerformed,
  onboardingPrompt,
  PREPARE_FOR_NEW_CONVERSATION,
  SUMMARIZE_CHANGES,
  THINK_ABOUT_COLLECTED_INFORMATION,
  THINK_ABOUT_TASK_ADHERENCE,
  THINK_ABOUT_WHETHER_YOU_ARE_DONE,
} from "../../prompts/workflow.ts";
import { memoriesOf } from "./write_memory.ts";
import { activationMessageOnce } from "./activate_project.ts";
import { defineTool, type Tool, type ToolContext } from "../tool.ts";

function isActive(ctx: ToolContext, name: string): boolean {
  return ctx.session.activeTools().some((t) => t.name === name);
}

/** A tool that only returns a fixed guidance text (it still requires an active project). */
function guidanceTool(name: string, description: string, text: string, optional = false): Tool {
  return defineTool({
    name,
    description,
    params: {},
    readOnly: true,
    ...(optional ? { markers: ["optional" as const] } : {}),
    handler(_args, ctx) {
      ctx.project();
      return Promise.resolve(text);
    },
  });
}

export const checkOnboardingPerformed = defineTool({
  name: "check_onboarding_performed",
  description:
    "Whether onboarding was done (the project has memories), listing them. Call it after " +
    "activating a project.",
  params: {},
  readOnly: true,
  async handler(_args, ctx) {
    const names = await memoriesOf(ctx).list();
    return names.length === 0
      ? onboardingNotPerformed(isActive(ctx, "onboarding"))
      : onboardingPerformed(names);
  },
});

export const onboarding = defineTool({
  name: "onboarding",
  description: "Instructions for learning the project and saving memories. Once, when " +
    "check_onboarding_performed says it was not done.",
  params: {},
  readOnly: true,
  handler(_args, ctx) {
    const project = ctx.project();
    if (!isActive(ctx, "write_memory")) return Promise.resolve(ONBOARDING_WITHOUT_MEMORIES);
    return Promise.resolve(onboardingPrompt(project.name));
  },
});

export const thinkAboutCollectedInformation = guidanceTool(
  "think_about_collected_information",
  "Thinking tool: checks whether the information collected is complete and correct. Call it " +
    "after a non-trivial series of searches or reads.",
  THINK_ABOUT_COLLECTED_INFORMATION,
  // Optional since Serena 1.7: canned text that costs every conversation ~350 characters.
  true,
);

export const thinkAboutTaskAdherence = guidanceTool(
  "think_about_task_adherence",
  "Thinking tool: checks that you are still on the task. Call it before inserting, replacing " +
    "or deleting code.",
  THINK_ABOUT_TASK_ADHERENCE,
  // Optional since Serena 1.7: canned text that costs every conversation ~350 characters.
  true,
);

export const thinkAboutWhetherYouAreDone = guidanceTool(
  "think_about_whether_you_are_done",
  "Thinking tool: checks whether the task is really complete. Call it whenever you believe " +
    "you are done.",
  THINK_ABOUT_WHETHER_YOU_ARE_DONE,
  // Optional since Serena 1.7: canned text that costs every conversation ~350 characters.
  true,
);

export const summarizeChanges = guidanceTool(
  "summarize_changes",
  "Returns instructions for summarizing your changes for the user. Call it after a non-trivial " +
    "coding task, once think_about_whether_you_are_done is satisfied.",
  SUMMARIZE_CHANGES,
  true,
);

export const prepareForNewConversation = guidanceTool(
  "prepare_for_new_conversation",
  "Returns instructions for saving a hand-over memory so a new conversation can continue the " +
    "work. Only when the user asks for it.",
  PREPARE_FOR_NEW_CONVERSATION,
  // Optional since Serena 1.7: canned text that costs every conversation ~350 characters.
  true,
);

export const initialInstructions = defineTool({
  name: "initial_instructions",
  description: "The 'Sextant Instructions Manual' on using the tools well. Call it first if " +
    "you have not read it.",
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
