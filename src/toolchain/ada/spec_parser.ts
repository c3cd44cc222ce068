/**
 * The parser behind {@linkcode parseSpec}: a token-level reader of Ada specifications that skips
 * what needs no body (types, records, objects, representation clauses, generic formal parts) and
 * records subprograms, entries and nested units.
 *
 * @module
 */
import { AdaLines, type Token, tokenize } from "./lexer.ts";
import {
  type Decl,
  type EntryDecl,
  needsBody,
  type ParsedSpec,
  type SubprogramDecl,
  type UnitDecl,
} from "./spec.ts";

/**
 * Parse an Ada specification (.ads) into the declarations that need or have bodies.
 *
 * @example
 * ```ts
 * const spec = parseSpec("package P is\n   procedure Run (X : Integer);\nend P;\n");
 * spec.unit?.kind; // "package"
 * ```
 */
export function parseSpec(source: string): ParsedSpec {
  return new SpecParser(source, tokenize(source)).parseUnit();
}

/** Reads one specification's tokens. */
export class SpecParser {
  #pos = 0;
  readonly notes: string[] = [];
  /** Set by `pragma Elaborate_Body` in the declarative part being read. */
  elaborateBody = false;
  readonly lines: AdaLines;

  constructor(readonly source: string, readonly tokens: Token[]) {
    this.lines = new AdaLines(source);
  }

  peek(offset = 0): Token | undefined {
    return this.tokens[this.#pos + offset];
  }

  next(): Token | undefined {
    return this.tokens[this.#pos++];
  }

  is(text: string, offset = 0): boolean {
    return this.peek(offset)?.lower === text;
  }

  done(): boolean {
    return this.#pos >= this.tokens.length;
  }

  /** Skip to after the next `;` at parenthesis depth 0, passing over record definitions. */
  skipDeclaration(): void {
    let depth = 0;
    while (!this.done()) {
      const t = this.next()!;
      if (t.text === "(") depth++;
      else if (t.text === ")") depth--;
      else if (
        depth === 0 && t.lower === "record" && this.tokens[this.#pos - 2]?.lower !== "null"
      ) {
        this.skipRecord();
      } else if (depth === 0 && t.text === ";") return;
    }
  }

  /** After `record`: skip to after `end record`. */
  skipRecord(): void {
    while (!this.done()) {
      if (this.is("end") && this.is("record", 1)) {
        this.next();
        this.next();
        return;
      }
      const t = this.next()!;
      if (t.lower === "record" && this.tokens[this.#pos - 2]?.lower !== "null") this.skipRecord();
    }
  }

  /** Skip a balanced parenthesised group starting at `(`; returns its source text. */
  skipParens(): string {
    const open = this.next()!;
    let depth = 1;
    let close = open;
    while (!this.done() && depth > 0) {
      close = this.next()!;
      if (close.text === "(") depth++;
      else if (close.text === ")") depth--;
    }
    return this.source.slice(open.start, close.end);
  }

  /** A name: identifiers joined by dots, or an operator symbol string. */
  readName(): string {
    const first = this.next();
    if (!first) return "";
    let name = first.text;
    while (this.is(".") && this.peek(1)?.kind === "id") {
      this.next();
      name += "." + this.next()!.text;
    }
    return name;
  }

  position(token: Token): { line: number; column: number } {
    return this.lines.position(token.start);
  }

  /** After `generic`: skip formal declarations up to the unit they parameterise. */
  skipGenericFormalPart(): void {
    while (!this.done()) {
      if (this.is("procedure") || this.is("function") || this.is("package")) return;
      this.skipDeclaration();
    }
  }

  parseUnit(): ParsedSpec {
    let isPrivate = false;
    while (!this.done()) {
      if (this.is("private") && !this.is("with", 1)) {
        this.next();
        isPrivate = true;
        continue;
      }
      if (this.is("generic")) {
        this.next();
        this.skipGenericFormalPart();
        this.notes.push(
          "The generic formal part is not repeated in the body (Ada does not allow it).",
        );
        const unit = this.parseUnitDeclaration(true);
        this.libraryPragmas(unit);
        return { unit, isPrivate, notes: this.notes };
      }
      if (
        this.is("package") || this.is("procedure") || this.is("function") || this.is("overriding")
      ) {
        const unit = this.parseUnitDeclaration(false);
        this.libraryPragmas(unit);
        return { unit, isPrivate, notes: this.notes };
      }
      // Context clauses and configuration pragmas.
      this.skipDeclaration();
    }
    return { unit: null, isPrivate, notes: this.notes };
  }

  /** Pragmas after a library subprogram's declaration: `pragma Import` means no body. */
  libraryPragmas(unit: UnitDecl | SubprogramDecl | null): void {
    while (!this.done()) {
      if (!this.is("pragma")) {
        this.skipDeclaration();
        continue;
      }
      const imported = this.pragmaImportedName();
      if (
        unit && (unit.kind === "procedure" || unit.kind === "function") && imported &&
        imported.toLowerCase().split(".").pop() === unit.name.toLowerCase().split(".").pop()
      ) {
        unit.needsBody = false;
        unit.reason = "imported (pragma Import)";
      }
    }
  }

  parseUnitDeclaration(generic: boolean): UnitDecl | SubprogramDecl | null {
    if (this.is("package")) return this.parsePackage(generic);
    if (this.is("procedure") || this.is("function") || this.is("overriding") || this.is("not")) {
      return this.parseSubprogram(generic);
    }
    return null;
  }

  parsePackage(generic: boolean): UnitDecl {
    const start = this.next()!; // package
    const unit: UnitDecl = {
      kind: "package",
      name: this.readName(),
      isType: false,
      generic,
      items: [],
      ...this.position(start),
      instantiation: false,
      elaborateBody: false,
      incompleteTypes: [],
      abstractStates: [],
    };
    if (this.is("renames") || (this.is("is") && this.is("new", 1))) {
      unit.instantiation = true;
      this.skipDeclaration();
      return unit;
    }
    const aspectsFrom = this.#pos;
    this.skipAspectsUntilIs();
    const aspects = this.tokens.slice(aspectsFrom, this.#pos);
    if (aspects.some((t) => t.lower === "elaborate_body")) unit.elaborateBody = true;
    unit.abstractStates = abstractStates(aspects);
    if (!this.is("is")) {
      this.skipDeclaration();
      return unit;
    }
    this.next(); // is
    const outer = this.elaborateBody;
    const outerIncomplete = this.incomplete;
    this.elaborateBody = false;
    unit.items = this.declarativePart();
    unit.incompleteTypes = this.lastIncomplete;
    if (this.elaborateBody) unit.elaborateBody = true;
    this.elaborateBody = outer;
    this.incomplete = outerIncomplete;
    this.skipEnd();
    return unit;
  }

  /** Skip an aspect specification (`with A, B => X`) up to `is` or `;` at depth 0. */
  skipAspectsUntilIs(): void {
    if (!this.is("with")) return;
    let depth = 0;
    while (!this.done()) {
      if (depth === 0 && (this.is("is") || this.is(";"))) return;
      const t = this.next()!;
      if (t.text === "(") depth++;
      else if (t.text === ")") depth--;
    }
  }

  /** `end [Name];` */
  skipEnd(): void {
    if (this.is("end")) this.skipDeclaration();
  }

  /** Declarations up to (not including) `end`; `private` starts the private part. */
  declarativePart(): Decl[] {
    const items: Decl[] = [];
    const imported = new Set<string>();
    this.incomplete = new Map();
    while (!this.done() && !this.is("end")) {
      const t = this.peek()!;
      switch (t.lower) {
        case "private":
          this.next();
          break;
        case "procedure":
        case "function":
          items.push(this.parseSubprogram(false));
          break;
        case "overriding":
          // Entries of protected and task units may be overriding too.
          if (this.is("entry", 1)) {
            this.next();
            items.push(this.parseEntry());
          } else {
            items.push(this.parseSubprogram(false));
          }
          break;
        case "not":
          if (this.is("overriding", 1)) items.push(this.parseSubprogram(false));
          else this.skipDeclaration();
          break;
        case "generic": {
          this.next();
          this.skipGenericFormalPart();
          const decl = this.parseUnitDeclaration(true);
          if (decl) items.push(decl);
          if (decl && needsBody(decl)) {
            this.notes.push(
              `The generic formal part of ${decl.name} is not repeated in its body (Ada does not allow it).`,
            );
          }
          break;
        }
        case "package":
          items.push(this.parsePackage(false));
          break;
        case "protected":
        case "task":
          items.push(this.parseConcurrentUnit());
          break;
        case "entry":
          items.push(this.parseEntry());
          break;
        case "type":
          this.typeDeclaration();
          break;
        case "pragma": {
          const name = this.pragmaImportedName();
          if (name) imported.add(name.toLowerCase());
          break;
        }
        default:
          this.skipDeclaration();
      }
    }
    for (const [i, item] of items.entries()) {
      if ((item.kind !== "procedure" && item.kind !== "function") || !item.needsBody) continue;
      if (imported.has(item.name.toLowerCase())) {
        item.needsBody = false;
        item.reason = "imported (pragma Import)";
        continue;
      }
      // A later expression function, null procedure or renaming with the same profile
      // completes the declaration in the spec itself (often in the private part).
      const key = item.signature.join(" ");
      const completion = items.slice(i + 1).find((other) =>
        (other.kind === "procedure" || other.kind === "function") && !other.needsBody &&
        other.signature.join(" ") === key
      ) as SubprogramDecl | undefined;
      if (completion) {
        item.needsBody = false;
        item.reason = `completed in the spec (${
          completion.reason ?? "later declaration"
        }, line ${completion.line})`;
      }
    }
    this.lastIncomplete = [...this.incomplete.values()];
    return items;
  }

  /** Incomplete type declarations of the current declarative part, by lower-cased name. */
  incomplete = new Map<string, string>();
  /** The incomplete types left at the end of the last declarative part read. */
  lastIncomplete: string[] = [];

  /** A type declaration: note incomplete ones (`type T;`, `type T (D : X) is tagged;`). */
  typeDeclaration(): void {
    const start = this.next()!; // type
    const name = this.peek()?.lower ?? "";
    const from = this.#pos;
    this.skipDeclaration();
    const body = this.tokens.slice(from + 1, this.#pos - 1);
    // Incomplete: no "is", or only "is tagged", after the optional discriminant part.
    let depth = 0;
    let isAt = -1;
    for (const [k, t] of body.entries()) {
      if (t.text === "(") depth++;
      else if (t.text === ")") depth--;
      else if (depth === 0 && t.lower === "is") {
        isAt = k;
        break;
      }
    }
    const rest = isAt < 0 ? [] : body.slice(isAt + 1).map((t) => t.lower);
    if (isAt < 0 || (rest.length === 1 && rest[0] === "tagged")) {
      const text = this.source.slice(start.start, this.tokens[this.#pos - 2]!.end);
      this.incomplete.set(name, text);
    } else {
      this.incomplete.delete(name);
    }
  }

  /** Consume a pragma; for `pragma Import/Interface (Convention, Entity ...)` return Entity. */
  pragmaImportedName(): string | null {
    this.next(); // pragma
    const name = this.next()?.lower ?? "";
    if (name === "elaborate_body") this.elaborateBody = true;
    if ((name !== "import" && name !== "interface") || !this.is("(")) {
      this.skipDeclaration();
      return null;
    }
    this.next(); // (
    const args: Array<{ key: string | null; value: string }> = [];
    let depth = 0;
    let key: string | null = null;
    let value = "";
    while (!this.done()) {
      const t = this.next()!;
      if (t.text === "(") depth++;
      if (t.text === ")") {
        if (depth === 0) break;
        depth--;
      }
      if (depth === 0 && t.text === ",") {
        args.push({ key, value });
        key = null;
        value = "";
      } else if (depth === 0 && t.text === "=>") {
        key = value.toLowerCase();
        value = "";
      } else {
        value += t.text;
      }
    }
    args.push({ key, value });
    this.skipDeclaration();
    const entity = args.find((a) => a.key === "entity") ?? args.filter((a) => a.key === null)[1];
    return entity?.value ?? null;
  }

  parseSubprogram(generic: boolean): SubprogramDecl {
    const first = this.peek()!;
    if (this.is("not")) this.next();
    if (this.is("overriding")) this.next();
    const kindToken = this.next()!;
    const kind = kindToken.lower === "function" ? "function" : "procedure";
    const name = this.readName();
    const decl: SubprogramDecl = {
      kind,
      name,
      profile: "",
      profileColumn: this.position(first).column - 1,
      signature: [],
      ...this.position(first),
      generic,
      needsBody: true,
    };
    if (this.is("is") && this.is("new", 1)) {
      decl.needsBody = false;
      decl.reason = "generic instantiation";
      decl.profile = this.source.slice(first.start, this.tokens[this.#pos - 1]!.end);
      this.skipDeclaration();
      return decl;
    }
    let last = this.tokens[this.#pos - 1]!;
    if (this.is("(")) {
      this.skipParens();
      last = this.tokens[this.#pos - 1]!;
    }
    if (kind === "function" && this.is("return")) {
      let depth = 0;
      while (!this.done()) {
        if (
          depth === 0 && (this.is(";") || this.is("is") || this.is("with") || this.is("renames"))
        ) {
          break;
        }
        const t = this.next()!;
        if (t.text === "(") depth++;
        else if (t.text === ")") depth--;
        last = t;
      }
    }
    decl.profile = this.source.slice(first.start, last.end);
    const kindIndex = this.tokens.indexOf(kindToken);
    decl.signature = this.tokens.slice(kindIndex, this.#pos).map((t) => t.lower);
    // What completes the declaration.
    if (this.is("renames")) {
      decl.needsBody = false;
      decl.reason = "renaming";
    } else if (this.is("is")) {
      const after = this.peek(1)?.lower;
      decl.needsBody = false;
      decl.reason = after === "abstract"
        ? "abstract"
        : after === "null"
        ? "null procedure"
        : after === "("
        ? "expression function"
        : after === "new"
        ? "generic instantiation"
        : "completed in the spec";
    } else if (this.is("with")) {
      // The aspect specification ends the declaration (its ";" is consumed here).
      if (this.aspectsImport()) {
        decl.needsBody = false;
        decl.reason = "imported (Import aspect)";
      }
      return decl;
    }
    this.skipDeclaration();
    return decl;
  }

  /** At `with`: consume the aspect specification and its `;`; true if it has Import. */
  aspectsImport(): boolean {
    let depth = 0;
    let imported = false;
    let expectName = true;
    while (!this.done()) {
      const t = this.next()!;
      if (t.text === "(") depth++;
      else if (t.text === ")") depth--;
      else if (depth === 0 && t.text === ";") break;
      else if (depth === 0 && (t.text === "," || t.lower === "with")) {
        expectName = true;
        continue;
      } else if (depth === 0 && expectName && t.lower === "import") {
        // "Import => False" is rare enough to ignore.
        imported = !(this.is("=>") && this.is("false", 1));
      }
      expectName = false;
    }
    return imported;
  }

  parseEntry(): EntryDecl {
    const start = this.next()!; // entry
    const entry: EntryDecl = {
      kind: "entry",
      name: this.readName(),
      family: null,
      params: null,
      ...this.position(start),
    };
    if (this.is("(")) {
      const group = this.skipParens();
      if (hasColonAtDepthOne(group)) entry.params = group;
      else {
        entry.family = group.slice(1, -1).trim();
        if (this.is("(")) entry.params = this.skipParens();
      }
    }
    this.skipDeclaration();
    return entry;
  }

  parseConcurrentUnit(): UnitDecl {
    const start = this.next()!; // protected | task
    const isType = this.is("type");
    if (isType) this.next();
    const unit: UnitDecl = {
      kind: start.lower === "task" ? "task" : "protected",
      name: this.readName(),
      isType,
      generic: false,
      items: [],
      ...this.position(start),
      instantiation: false,
      elaborateBody: false,
      incompleteTypes: [],
      abstractStates: [],
    };
    if (this.is("(")) this.skipParens(); // discriminants
    this.skipAspectsUntilIs();
    if (!this.is("is")) {
      this.skipDeclaration(); // task T;  (no entries)
      return unit;
    }
    this.next(); // is
    if (this.is("new")) {
      // Interface list: "new I1 and I2 with".
      while (!this.done() && !this.is("with")) this.next();
      this.next();
    }
    const outerIncomplete = this.incomplete;
    unit.items = this.declarativePart();
    this.incomplete = outerIncomplete;
    this.skipEnd();
    return unit;
  }
}

/** State names of an `Abstract_State => ...` aspect among a package's aspect tokens. */
function abstractStates(aspects: Token[]): string[] {
  const at = aspects.findIndex((t, i) =>
    t.lower === "abstract_state" && aspects[i + 1]?.text === "=>"
  );
  if (at < 0) return [];
  const value = aspects.slice(at + 2);
  const first = value[0];
  if (!first || first.lower === "null") return [];
  if (first.text !== "(") return first.kind === "id" ? [first.text] : [];
  // The group's elements, split at its top-level commas.
  const elements: Token[][] = [[]];
  let depth = 0;
  for (const t of value) {
    if (t.text === "(") depth++;
    if (t.text === ")") depth--;
    if (depth === 0) break;
    if (depth === 1 && t.text === ",") elements.push([]);
    else if (!(depth === 1 && t.text === "(" && elements[elements.length - 1]!.length === 0)) {
      elements[elements.length - 1]!.push(t);
    }
  }
  // "(S with Options)" is one state with options, not a list.
  if (elements[0]!.some((t) => t.lower === "with")) {
    const name = elements[0]!.find((t) => t.kind === "id");
    return name ? [name.text] : [];
  }
  return elements.map((e) => e.find((t) => t.kind === "id")?.text).filter((n): n is string => !!n);
}

function hasColonAtDepthOne(group: string): boolean {
  let depth = 0;
  for (const t of tokenize(group)) {
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    else if (t.text === ":" && depth === 1) return true;
  }
  return false;
}
