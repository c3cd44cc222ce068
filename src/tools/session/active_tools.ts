/**
 * Whether a session exposes a tool: the session and workflow tools word their answers after what
 * the agent can call.
 * @module
 */
import type { Session } from "../../session/session.ts";

export function isActive(session: Session, name: string): boolean {
  return session.activeTools().some((t) => t.name === name);
}
