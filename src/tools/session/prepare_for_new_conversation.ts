/**
 * prepare_for_new_conversation: fixed instructions for a hand-over memory (prompts/workflow.ts).
 * @module
 */
import { PREPARE_FOR_NEW_CONVERSATION } from "../../prompts/workflow.ts";
import { guidanceTool } from "./guidance_tool.ts";

export const prepareForNewConversation = guidanceTool(
  "prepare_for_new_conversation",
  "Returns instructions for saving a hand-over memory so a new conversation can continue the " +
    "work. Only when the user asks for it.",
  PREPARE_FOR_NEW_CONVERSATION,
  // Optional since Serena 1.7: canned text that costs every conversation ~350 characters.
  true,
);
