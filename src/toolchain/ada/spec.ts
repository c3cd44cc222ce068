/**
 * What an Ada specification declares that needs a body: subprogram declarations (with their
 * profiles cut verbatim from the source), entries, nested packages, protected and task units, and
 * what completes a declaration without a body (abstract, null, expression functions, renamings,
 * instantiations, imports). The parser, and `parseSpec`, are in spec_parser.ts.
 * @module
 */

/** A procedure or function declaration. */
export interface SubprogramDecl {
  kind: "procedure" | "function";
  /** As written: `Area`, `"+"`, `Parent.Child`. */
  name: string;
  /** Source text from the first token (`overriding`, `procedure`...) to the end of the profile. */
  profile: string;
  /** 0-based column where `profile` starts in the source (to re-indent its later lines). */
  profileColumn: number;
  /** Lower-cased tokens of the profile from `procedure`/`function` on, for conformance checks. */
  signature: string[];
  line: number;
  column: number;
  /** Declared in a generic formal part's unit (`generic ... procedure X`). */
  generic: boolean;
  /** False when the declaration is completed without a body; `reason` says how. */
  needsBody: boolean;
  reason?: string;
}

/** An entry of a protected or task unit. */
export interface EntryDecl {
  kind: "entry";
  name: string;
  /** The family index (a discrete subtype or range), if this is an entry family. */
  family: string | null;
  /** The formal part, parentheses included, or null. */
  params: string | null;
  line: number;
  column: number;
}

/** A package, protected unit or task unit with its declarations. */
export interface UnitDecl {
  kind: "package" | "protected" | "task";
  name: string;
  /** `protected type` / `task type` rather than a single object. */
  isType: boolean;
  generic: boolean;
  items: Decl[];
  line: number;
  column: number;
  /** True for `package X is new G (...)` and renamings: nothing to implement. */
  instantiation: boolean;
  /** The spec asks for a body (`pragma Elaborate_Body` or the aspect). */
  elaborateBody: boolean;
  /**
   * Incomplete types of the private part never completed in the spec (`type T;`): the body
   * must complete them. Each is the declaration's text without its `;`.
   */
  incompleteTypes: string[];
  /** SPARK abstract states (the `Abstract_State` aspect); the body must refine them. */
  abstractStates: string[];
}

/** Any declaration the stub generator cares about. */
export type Decl = SubprogramDecl | EntryDecl | UnitDecl;

/** Whether a declaration is a procedure or function. */
export function isSubprogram(decl: Decl): decl is SubprogramDecl {
  return decl.kind === "procedure" || decl.kind === "function";
}

/** The outcome of parsing a specification. */
export interface ParsedSpec {
  /** The library unit, or null when none was recognised. */
  unit: UnitDecl | SubprogramDecl | null;
  /** `private package X` (the body is not marked private). */
  isPrivate: boolean;
  /** Things the agent should know (generic formal parts skipped, ...). */
  notes: string[];
}

/** Whether a declaration (or anything nested in it) needs a body. */
export function needsBody(decl: Decl): boolean {
  switch (decl.kind) {
    case "procedure":
    case "function":
      return decl.needsBody;
    case "entry":
      return true;
    case "task":
    case "protected":
      return true;
    case "package":
      return !decl.instantiation &&
        (decl.elaborateBody || decl.incompleteTypes.length > 0 || decl.items.some(needsBody));
  }
}
