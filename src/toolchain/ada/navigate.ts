/**
 * Spec/body navigation: subprogram bodies in a body file, the one enclosing a line, and the
 * declaration in the spec that a body completes (matched by name and full conformance of the
 * profile, as Ada itself matches them).
 * @module
 */
import { AdaLines, type Token, tokenize } from "./lexer.ts";
import { type Decl, isSubprogram, type SubprogramDecl } from "./spec.ts";
import { parseSpec } from "./spec_parser.ts";

/** A subprogram (or entry) body, or a subprogram declaration, at a place in a file. */
export interface Located {
  kind: string;
  name: string;
  /** Lower-cased profile tokens from `procedure`/`function`/`entry` on, for matching. */
  signature: string[];
  line: number;
  column: number;
  /** The declaration or body header as one line (for previews). */
  preview: string;
  /** Offsets of the whole body (header to `end Name;`), for bodies. */
  start: number;
  end: number;
}

function oneLine(text: string): string {
  return text.replace(/--[^\n]*/g, "").replace(/\s+/g, " ").trim().slice(0, 300);
}

/**
 * The subprogram and entry bodies of an Ada body file (nested ones included), each spanning
 * from its header to its `end Name;`.
 */
export function findBodies(source: string): Located[] {
  const tokens = tokenize(source);
  const lines = new AdaLines(source);
  const bodies: Located[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.lower !== "procedure" && t.lower !== "function" && t.lower !== "entry") continue;
    if (tokens[i - 1]?.lower === "with" || tokens[i - 1]?.lower === "access") continue;
    const name = nameAt(tokens, i + 1);
    if (!name) continue;
    // Find "is" at depth 0 (a body) before any ";" (a declaration).
    let depth = 0;
    let j = name.next;
    let isAt = -1;
    for (; j < tokens.length; j++) {
      const u = tokens[j]!;
      if (u.text === "(") depth++;
      else if (u.text === ")") depth--;
      else if (depth === 0 && (u.text === ";" || u.lower === "renames")) break;
      else if (depth === 0 && u.lower === "is") {
        isAt = j;
        break;
      }
    }
    if (isAt < 0) continue;
    const after = tokens[isAt + 1]?.lower;
    if (
      after === "new" || after === "abstract" || after === "null" || after === "(" || after === "<>"
    ) {
      continue;
    }
    // The signature stops before an entry barrier ("when ...") or aspects ("with ...").
    let sigEnd = isAt;
    for (let k = name.next; k < isAt; k++) {
      if (
        depthAt(tokens, name.next, k) === 0 &&
        (tokens[k]!.lower === "when" || tokens[k]!.lower === "with")
      ) {
        sigEnd = k;
        break;
      }
    }
    const end = findEnd(tokens, isAt + 1, name.text);
    const position = lines.position(t.start);
    bodies.push({
      kind: t.lower,
      name: name.text,
      signature: tokens.slice(i, sigEnd).map((x) => x.lower),
      ...position,
      preview: oneLine(source.slice(t.start, tokens[isAt]!.end)),
      start: t.start,
      end: end ?? source.length,
    });
  }
  return bodies;
}

function depthAt(tokens: Token[], from: number, to: number): number {
  let depth = 0;
  for (let k = from; k < to; k++) {
    if (tokens[k]!.text === "(") depth++;
    else if (tokens[k]!.text === ")") depth--;
  }
  return depth;
}

function nameAt(tokens: Token[], i: number): { text: string; next: number } | null {
  const first = tokens[i];
  if (!first || (first.kind !== "id" && first.kind !== "str")) return null;
  let text = first.text;
  let j = i + 1;
  while (tokens[j]?.text === "." && tokens[j + 1]?.kind === "id") {
    text += "." + tokens[j + 1]!.text;
    j += 2;
  }
  return { text, next: j };
}

/** Offset after `end Name;` closing a body that starts at token `from`. */
function findEnd(tokens: Token[], from: number, name: string): number | null {
  const lower = name.toLowerCase().split(".").pop()!;
  for (let k = from; k < tokens.length - 2; k++) {
    if (
      tokens[k]!.lower === "end" && tokens[k + 1]!.lower === lower && tokens[k + 2]!.text === ";"
    ) {
      return tokens[k + 2]!.end;
    }
  }
  return null;
}

/** The innermost body enclosing a 1-based line. */
export function bodyAtLine(source: string, line: number): Located | null {
  const offset = new AdaLines(source).lineStart(line);
  const lineEnd = source.indexOf("\n", offset);
  const candidates = findBodies(source).filter((b) =>
    b.start <= (lineEnd < 0 ? source.length : lineEnd) && offset <= b.end
  );
  return candidates.sort((a, b) => b.start - a.start)[0] ?? null;
}

/** Every subprogram and entry declaration of a spec, flattened. */
export function specDeclarations(source: string): Located[] {
  const lines = new AdaLines(source);
  const out: Located[] = [];
  const visit = (decls: Decl[]) => {
    for (const d of decls) {
      if (isSubprogram(d)) {
        out.push(fromSubprogram(d, lines));
      } else if (d.kind === "entry") {
        out.push({
          kind: "entry",
          name: d.name,
          signature: ["entry", ...tokenize(`${d.name} ${d.params ?? ""}`).map((t) => t.lower)],
          line: d.line,
          column: d.column,
          preview: oneLine(`entry ${d.name}${d.family ? ` (${d.family})` : ""} ${d.params ?? ""}`),
          start: lines.lineStart(d.line) + d.column - 1,
          end: lines.lineStart(d.line) + d.column - 1,
        });
      } else {
        visit(d.items);
      }
    }
  };
  const spec = parseSpec(source);
  if (spec.unit && isSubprogram(spec.unit)) {
    out.push(fromSubprogram(spec.unit, lines));
  } else if (spec.unit) {
    visit(spec.unit.items);
  }
  return out;
}

function fromSubprogram(d: SubprogramDecl, lines: AdaLines): Located {
  const start = lines.lineStart(d.line) + d.column - 1;
  return {
    kind: d.kind,
    name: d.name,
    signature: d.signature,
    line: d.line,
    column: d.column,
    preview: oneLine(d.profile) + ";",
    start,
    end: start + d.profile.length,
  };
}

/** The best match for `wanted` among `candidates`: same profile, else the same name. */
export function matchDeclaration(wanted: Located, candidates: Located[]): Located | null {
  const key = wanted.signature.join(" ");
  const sameName = candidates.filter((c) => c.name.toLowerCase() === wanted.name.toLowerCase());
  return sameName.find((c) => c.signature.join(" ") === key) ?? sameName[0] ?? null;
}

/** The spec declaration at (or whose profile spans) a 1-based line. */
export function declarationAtLine(source: string, line: number): Located | null {
  const lines = new AdaLines(source);
  const start = lines.lineStart(line);
  const end = lines.lineStart(line + 1);
  const decls = specDeclarations(source);
  return decls.find((d) => d.start < end && start <= d.end) ??
    decls.filter((d) => d.line <= line).pop() ?? null;
}
