/**
 * Bash rules: bash-language-server (functions and variables).
 * @module
 */
import { K, memberNames, named, type Rule, unmodelled } from "./core.ts";

/** Commands that set variables without an assignment (`read x`), which the server lists. */
const BASH_BINDING_COMMANDS: ReadonlySet<string> = new Set([
  "read",
  "mapfile",
  "readarray",
  "getopts",
  "printf",
  "let",
]);

/** A variable, listed where it is first assigned in its function (or the script). */
const bashAssignment: Rule = (n) => {
  let scope = n.parent;
  while (scope && scope.type !== "function_definition" && scope.type !== "program") {
    scope = scope.parent;
  }
  const found = named(n, K.Variable);
  if (!found || !scope) return found;
  let names = memberNames.get(scope.id);
  if (!names) memberNames.set(scope.id, names = new Set());
  if (names.has(found.name)) return null;
  names.add(found.name);
  // Assigned in two functions, or in one and the script: which the server lists is not modelled.
  const key = `\0bash ${found.name}`;
  let scopes = memberNames.get(-1);
  if (!scopes) memberNames.set(-1, scopes = new Set());
  if (scopes.has(key)) return unmodelled("variable assigned in several functions");
  scopes.add(key);
  return found;
};

export const BASH_RULES: Readonly<Record<string, Rule>> = {
  function_definition: (n) => named(n, K.Function),
  variable_assignment: bashAssignment,
  command: (n) =>
    BASH_BINDING_COMMANDS.has(n.childForFieldName("name")?.text ?? "")
      ? unmodelled("variable bound by a command")
      : null,
};
