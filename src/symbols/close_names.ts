/**
 * The hint of a symbol search that matched nothing: declarations whose name is close to the
 * pattern's last segment (a typo, another case, a part of the name), from the declaration index,
 * with their name paths. A pattern with containers (`Flask/route`) that misses although the name
 * is declared elsewhere (`Scaffold/route`: an inherited method) gets those too, and the reason.
 * @module
 */
import type { CompactSymbol } from "./model.ts";
import type { NamePathPattern } from "./name_path.ts";

/** What the hint needs of the declaration index (index/declaration_index.ts, a floor above). */
export interface DeclaredNames {
  namesLike(wanted: string, limit?: number): string[];
  candidates(name: string, options: { scope: string }): string[];
  declarations(relPath: string): CompactSymbol[] | undefined;
}

/** Declarations close to `pattern` in `scope`: `Outer/name in path`, closest names first. */
export function closeDeclarations(
  index: DeclaredNames,
  pattern: NamePathPattern,
  scope: string,
  limit = 10,
): string[] {
  const wanted = pattern.segments[pattern.segments.length - 1]!.name;
  if (wanted.length < 2) return [];
  const found: string[] = [];
  for (const name of index.namesLike(wanted)) {
    for (const relPath of index.candidates(name, { scope })) {
      for (const path of namePathsNamed(index.declarations(relPath) ?? [], name)) {
        found.push(`${path} in ${relPath}`);
        if (found.length >= limit) return found;
      }
    }
  }
  return found;
}

/** The name paths of the declarations named `name` in a compact forest. */
function namePathsNamed(forest: readonly CompactSymbol[], name: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const symbol of forest) {
    const path = prefix ? `${prefix}/${symbol[0]}` : symbol[0];
    if (symbol[0] === name) out.push(path);
    if (symbol[10]) out.push(...namePathsNamed(symbol[10], name, path));
  }
  return out;
}

/** The note beside an empty answer: close names, or nothing when there are none. */
export function noMatchNote(pattern: NamePathPattern, close: readonly string[]): string | null {
  if (close.length === 0) return null;
  const last = pattern.segments[pattern.segments.length - 1]!.name;
  const sameName = close.some((c) => c.split(" in ")[0]!.split("/").pop() === last);
  const inherited = pattern.segments.length > 1 && sameName
    ? ` A name path follows where a symbol is declared: a member inherited from a base class is ` +
      "found under that class."
    : "";
  return `No symbol matches '${pattern.text}'. Close names: ${close.join(", ")}.${inherited}`;
}
