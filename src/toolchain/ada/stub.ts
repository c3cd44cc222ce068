/**
 * Body stubs from a parsed specification: every subprogram, entry, task and protected unit that
 * needs a body gets one that raises Program_Error, so the unit compiles before it is written.
 * @module
 */
import {
  type Decl,
  isSubprogram,
  needsBody,
  type ParsedSpec,
  type SubprogramDecl,
  type UnitDecl,
} from "./spec.ts";

/** Options of {@linkcode generateBody}. */
export interface StubOptions {
  /** Spaces per nesting level (default 3, GNAT style). */
  indent?: number;
  /** The message of the raised Program_Error (default "not implemented"). */
  message?: string;
}

/** A declaration that got no stub, and why. */
export interface SkippedDecl {
  name: string;
  reason: string;
}

/** A generated body. */
export interface GeneratedBody {
  /** The compilation unit's text; empty when the spec needs no body. */
  code: string;
  /** The unit's name as written in the spec. */
  unit: string;
  /** Subprograms and entries given a stub. */
  stubs: number;
  skipped: SkippedDecl[];
  notes: string[];
}

/** Re-indent a profile cut from the spec: its first line goes to `indent`, later lines follow. */
function reindent(text: string, fromColumn: number, indent: string): string {
  const shift = indent.length - fromColumn;
  return text.split("\n").map((line, i) => {
    if (i === 0) return indent + line;
    const trimmed = line.replace(/\s+$/, "");
    if (shift >= 0) return " ".repeat(shift) + trimmed;
    const lead = /^ */.exec(trimmed)![0].length;
    return trimmed.slice(Math.min(lead, -shift));
  }).join("\n");
}

class BodyWriter {
  readonly out: string[] = [];
  stubs = 0;
  readonly skipped: SkippedDecl[] = [];

  constructor(readonly step: string, readonly raise: string) {}

  /** `inProtected`: protected subprogram bodies take no overriding indicator. */
  subprogram(decl: SubprogramDecl, level: number, inProtected = false): void {
    if (!decl.needsBody) {
      this.skipped.push({ name: decl.name, reason: decl.reason ?? "no body needed" });
      return;
    }
    const pad = this.step.repeat(level);
    const inner = pad + this.step;
    const statement = decl.kind === "function" ? `return ${this.raise};` : `${this.raise};`;
    const profile = inProtected
      ? decl.profile.replace(/^(not\s+)?overriding\s+/i, "")
      : decl.profile;
    this.out.push(
      `${reindent(profile, decl.profileColumn, pad)} is`,
      `${pad}begin`,
      `${inner}${statement}`,
      `${pad}end ${decl.name};`,
      "",
    );
    this.stubs++;
  }

  entry(entry: Extract<Decl, { kind: "entry" }>, level: number): void {
    const pad = this.step.repeat(level);
    const family = entry.family === null ? "" : ` (for I in ${entry.family})`;
    const params = entry.params === null ? "" : ` ${entry.params.replace(/\s*\n\s*/g, " ")}`;
    this.out.push(
      `${pad}entry ${entry.name}${family}${params} when True is`,
      `${pad}begin`,
      `${pad}${this.step}${this.raise};`,
      `${pad}end ${entry.name};`,
      "",
    );
    this.stubs++;
  }

  unit(unit: UnitDecl, level: number): void {
    const pad = this.step.repeat(level);
    if (unit.kind === "task") {
      this.out.push(
        `${pad}task body ${unit.name} is`,
        `${pad}begin`,
        `${pad}${this.step}${this.raise};`,
        `${pad}end ${unit.name};`,
        "",
      );
      this.stubs++;
      return;
    }
    if (unit.kind === "package" && !needsBody(unit)) return;
    this.out.push(`${pad}${unit.kind} body ${unit.name}${this.refinedState(unit, pad)}is`, "");
    this.completeTypes(unit, level + 1);
    this.items(unit.items, level + 1, unit.kind === "protected");
    this.out.push(`${pad}end ${unit.name};`, "");
  }

  /** Full declarations for the private part's incomplete types (Taft amendment types). */
  completeTypes(unit: UnitDecl, level: number): void {
    const pad = this.step.repeat(level);
    for (const declaration of unit.incompleteTypes) {
      const tagged = /\bis\s+tagged$/i.test(declaration);
      const head = declaration.replace(/\s+is\s+tagged$/i, "").replace(/\s*\n\s*/g, " ");
      this.out.push(`${pad}${head} is ${tagged ? "tagged " : ""}null record;`, "");
    }
  }

  /**
   * A null refinement of each SPARK abstract state, which the body must give; the text between
   * the body's name and its `is` (a single space without abstract states).
   */
  refinedState(unit: UnitDecl, pad: string): string {
    if (unit.abstractStates.length === 0) return " ";
    const refinements = unit.abstractStates.map((s) => `${s} => null`).join(", ");
    return ` with\n${pad}${this.step}Refined_State => (${refinements})\n${pad}`;
  }

  items(items: Decl[], level: number, inProtected = false): void {
    for (const item of items) {
      if (isSubprogram(item)) {
        this.subprogram(item, level, inProtected);
      } else if (item.kind === "entry") this.entry(item, level);
      else if (item.kind === "package" && item.instantiation) continue;
      else this.unit(item, level);
    }
  }
}

/**
 * The body of a parsed specification: `package body X is ... end X;` with a stub per
 * subprogram (procedures raise Program_Error, functions `return raise Program_Error ...`, an
 * Ada 2012 raise expression), entry (`when True`), task and protected unit, and nested package
 * bodies where they need one. A library subprogram's spec yields the subprogram's body.
 *
 * @example
 * ```ts
 * import { parseSpec } from "./spec_parser.ts";
 * const body = generateBody(parseSpec("package P is\n   procedure Run;\nend P;\n"));
 * body.code; // "package body P is\n\n   procedure Run is\n   begin\n ..."
 * ```
 */
export function generateBody(spec: ParsedSpec, options: StubOptions = {}): GeneratedBody {
  const step = " ".repeat(options.indent ?? 3);
  const message = (options.message ?? "not implemented").replaceAll('"', '""');
  const writer = new BodyWriter(step, `raise Program_Error with "${message}"`);
  const notes = [...spec.notes];
  const unit = spec.unit;
  if (!unit) {
    return {
      code: "",
      unit: "",
      stubs: 0,
      skipped: [],
      notes: [...notes, "No package or subprogram declaration found."],
    };
  }
  if (isSubprogram(unit)) {
    writer.subprogram(unit, 0);
  } else if (unit.kind === "package") {
    if (unit.instantiation) {
      notes.push(`${unit.name} is an instantiation or renaming; it has no body of its own.`);
    } else if (!needsBody(unit)) {
      notes.push(
        `Package ${unit.name} declares nothing that needs a body, and Ada forbids a body for it ` +
          "(unless the spec has pragma Elaborate_Body).",
      );
    } else {
      writer.out.push(`package body ${unit.name}${writer.refinedState(unit, "")}is`, "");
      writer.completeTypes(unit, 1);
      writer.items(unit.items, 1);
      writer.out.push(`end ${unit.name};`);
    }
  } else {
    writer.unit(unit, 0);
  }
  const code = writer.out.length ? writer.out.join("\n").replace(/\n+$/, "") + "\n" : "";
  return {
    code,
    unit: unit.name,
    stubs: writer.stubs,
    skipped: writer.skipped,
    // Without a body, what a body would leave out does not matter.
    notes: code ? notes : notes.filter((n) => !n.startsWith("The generic formal part")),
  };
}
