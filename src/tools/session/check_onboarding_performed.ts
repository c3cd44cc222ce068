/**
 * check_onboarding_performed: whether the project has memories (onboarding was done), listing
 * them.
 * @module
 */
import { onboardingNotPerformed, onboardingPerformed } from "../../prompts/workflow.ts";
import { defineTool } from "../tool.ts";
import { isActive } from "./active_tools.ts";
import { memoriesOf } from "./project_memories.ts";

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
      ? onboardingNotPerformed(isActive(ctx.session, "onboarding"))
      : onboardingPerformed(names);
  },
});
