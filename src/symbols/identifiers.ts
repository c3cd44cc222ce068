/**
 * Checks on names an agent asks a language server to rename a symbol to. Servers differ in what
 * they accept (tsserver writes `bad name!` into the code), so Sextant refuses what is an
 * identifier in no language before asking.
 * @module
 */
import { ToolError } from "../errors.ts";

/**
 * Letters, digits, `_` and `$`, not starting with a digit; a final `?` or `!` is allowed (Ruby,
 * Elixir method names), and `'` inside (Haskell, OCaml primes). Anything else (spaces,
 * punctuation, operators, dots) cannot be one symbol's name.
 */
const NEW_NAME = /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$']*[?!]?$/u;

/** The trimmed new name, or a ToolError saying why it cannot be a symbol's name. */
export function checkNewName(newName: string): string {
  const name = newName.trim();
  if (name === "") throw new ToolError("new_name is empty.");
  if (!NEW_NAME.test(name)) {
    throw new ToolError(
      `new_name '${name}' is not a valid identifier: use letters, digits and '_' (not starting ` +
        "with a digit), without spaces or punctuation. Nothing was changed.",
    );
  }
  return name;
}
