/**
 * Ada compilation units: which unit a source file holds (spec, body or subunit), its context
 * clauses, and GNAT's file naming convention (`Parent.Child` → `parent-child.ads`/`.adb`).
 * @module
 */
import type { GprNaming } from "./gpr.ts";
import { type Token, tokenize } from "./lexer.ts";

/** What a source file holds. */
export interface UnitHeader {
  /** The unit's full name as written (`Geometry.Shapes`); for a subunit, `Parent.Name`. */
  unit: string;
  part: "spec" | "body" | "subunit";
  /** `package`, `procedure`, `function`, `task`, `protected` or `generic`. */
  kind: string;
  /** Units named in `with` clauses, with how (`with`, `limited with`, `private with`). */
  withs: Array<{ unit: string; kind: string }>;
  /** For a subunit, its parent unit (`separate (Parent)`). */
  parent: string | null;
}

function readName(tokens: Token[], i: number): { name: string; next: number } {
  let name = tokens[i]?.text ?? "";
  let j = i + 1;
  while (tokens[j]?.text === "." && tokens[j + 1]?.kind === "id") {
    name += "." + tokens[j + 1]!.text;
    j += 2;
  }
  return { name, next: j };
}

/**
 * The compilation unit of an Ada source text, or null when none is recognised.
 *
 * @example
 * ```ts
 * readUnitHeader("with Utils;\npackage body Shapes is end Shapes;")?.unit; // "Shapes"
 * ```
 */
export function readUnitHeader(source: string): UnitHeader | null {
  const tokens = tokenize(source);
  const withs: UnitHeader["withs"] = [];
  let parent: string | null = null;
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    const kindOfWith = t.lower === "with"
      ? "with"
      : (t.lower === "limited" || t.lower === "private") && tokens[i + 1]?.lower === "with"
      ? `${t.lower} with`
      : t.lower === "limited" && tokens[i + 1]?.lower === "private" &&
          tokens[i + 2]?.lower === "with"
      ? "limited private with"
      : null;
    if (kindOfWith) {
      i += kindOfWith.split(" ").length;
      while (i < tokens.length && tokens[i]!.text !== ";") {
        if (tokens[i]!.kind === "id") {
          const { name, next } = readName(tokens, i);
          withs.push({ unit: name, kind: kindOfWith });
          i = next;
        } else i++;
      }
      i++;
      continue;
    }
    if (t.lower === "use" || t.lower === "pragma") {
      while (i < tokens.length && tokens[i]!.text !== ";") i++;
      i++;
      continue;
    }
    if (t.lower === "separate" && tokens[i + 1]?.text === "(") {
      const { name, next } = readName(tokens, i + 2);
      parent = name;
      i = next + 1;
      continue;
    }
    if (t.lower === "private") {
      i++;
      continue;
    }
    if (t.lower === "generic") {
      // Skip the formal part up to the unit it belongs to.
      i++;
      while (i < tokens.length) {
        const k = tokens[i]!.lower;
        const afterWith = tokens[i - 1]?.lower === "with";
        if ((k === "package" || k === "procedure" || k === "function") && !afterWith) break;
        i++;
      }
      const header = unitAt(tokens, i, withs, parent);
      if (header) header.kind = "generic";
      return header;
    }
    return unitAt(tokens, i, withs, parent);
  }
  return null;
}

function unitAt(
  tokens: Token[],
  i: number,
  withs: UnitHeader["withs"],
  parent: string | null,
): UnitHeader | null {
  let k = i;
  if (tokens[k]?.lower === "overriding") k++;
  const kind = tokens[k]?.lower ?? "";
  if (!["package", "procedure", "function", "task", "protected"].includes(kind)) return null;
  k++;
  let isBody = false;
  if (tokens[k]?.lower === "body") {
    isBody = true;
    k++;
  }
  const { name, next } = readName(tokens, k);
  if (!name) return null;
  if (!isBody && (kind === "procedure" || kind === "function")) {
    // A subprogram is a body when its profile is followed by "is" (not "is new"/"renames").
    let depth = 0;
    for (let j = next; j < tokens.length; j++) {
      const t = tokens[j]!;
      if (t.text === "(") depth++;
      else if (t.text === ")") depth--;
      else if (depth === 0 && (t.text === ";" || t.lower === "renames")) break;
      else if (depth === 0 && t.lower === "is") {
        isBody = tokens[j + 1]?.lower !== "new";
        break;
      }
    }
  }
  if (parent) return { unit: `${parent}.${name}`, part: "subunit", kind, withs, parent };
  return { unit: name, part: isBody ? "body" : "spec", kind, withs, parent };
}

/** The default naming scheme (GNAT's). */
export const DEFAULT_NAMING: GprNaming = {
  specSuffix: ".ads",
  bodySuffix: ".adb",
  dotReplacement: "-",
  specFiles: {},
  bodyFiles: {},
};

/**
 * The file name a unit's spec or body has under a naming scheme.
 *
 * @example
 * ```ts
 * unitFileName("Parent.Child", "spec"); // "parent-child.ads"
 * ```
 */
export function unitFileName(
  unit: string,
  part: "spec" | "body",
  naming: GprNaming = DEFAULT_NAMING,
): string {
  const key = unit.toLowerCase();
  const explicit = part === "spec" ? naming.specFiles[key] : naming.bodyFiles[key];
  if (explicit) return explicit;
  return key.replaceAll(".", naming.dotReplacement) +
    (part === "spec" ? naming.specSuffix : naming.bodySuffix);
}

/** The unit a file name stands for under a naming scheme, or null if it is not an Ada file. */
export function unitOfFileName(
  fileName: string,
  naming: GprNaming = DEFAULT_NAMING,
): { unit: string; part: "spec" | "body" } | null {
  const lower = fileName.toLowerCase();
  for (const [unit, file] of Object.entries(naming.specFiles)) {
    if (file.toLowerCase() === lower) return { unit, part: "spec" };
  }
  for (const [unit, file] of Object.entries(naming.bodyFiles)) {
    if (file.toLowerCase() === lower) return { unit, part: "body" };
  }
  const part = lower.endsWith(naming.specSuffix)
    ? "spec"
    : lower.endsWith(naming.bodySuffix)
    ? "body"
    : null;
  if (!part) return null;
  const stem = lower.slice(0, -(part === "spec" ? naming.specSuffix : naming.bodySuffix).length);
  return { unit: stem.split(naming.dotReplacement).join("."), part };
}
