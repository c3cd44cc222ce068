/**
 * The session id that initial_instructions states (Serena 2.1 gives every session one for its
 * `session` parameters). It imports nothing but a type, so any tool may use it.
 * @module
 */
import type { Session } from "../session.ts";

const sessionIds = new WeakMap<Session, string>();

/**
 * Eight hex digits, fixed for the MCP session. `repl` without `session` uses it, so the stated id and the
 * default reach the same variables.
 */
export function sessionId(session: Session): string {
  let id = sessionIds.get(session);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(4));
    id = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    sessionIds.set(session, id);
  }
  return id;
}
