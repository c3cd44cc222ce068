/**
 * Hover text as language servers send it (markdown, marked strings, plain text), split into
 * the code part (signatures) and the prose (documentation).
 * @module
 */

/** Markdown/plain hover contents → code (signatures) and prose (documentation). */
export function splitHover(contents: unknown): { code: string; prose: string } {
  const code: string[] = [];
  const prose: string[] = [];
  const addMarkdown = (text: string) => {
    const fence = /```[^\n]*\n([\s\S]*?)```/g;
    let last = 0;
    for (let m = fence.exec(text); m !== null; m = fence.exec(text)) {
      prose.push(text.slice(last, m.index));
      code.push(m[1]!.trimEnd());
      last = m.index + m[0].length;
    }
    prose.push(text.slice(last));
  };
  const visit = (item: unknown) => {
    if (typeof item === "string") addMarkdown(item);
    else if (Array.isArray(item)) item.forEach(visit);
    else if (item && typeof item === "object") {
      const o = item as { kind?: string; language?: string; value?: string };
      if (typeof o.value !== "string") return;
      if (o.language !== undefined) code.push(o.value.trimEnd());
      else if (o.kind === "plaintext") prose.push(o.value);
      else addMarkdown(o.value);
    }
  };
  visit(contents);
  const cleaned = prose.map((p) => p.replace(/^\s*-{3,}\s*$/gm, "").trim()).filter(Boolean);
  return { code: code.filter(Boolean).join("\n"), prose: cleaned.join("\n\n") };
}

const HOVER_KINDS = new Set([
  "function",
  "class",
  "interface",
  "type",
  "enum",
  "const",
  "let",
  "var",
  "module",
  "namespace",
  "def",
  "procedure",
  "package",
]);

/** The kind a hover names: `(method) ...` → method, `class X` → class. */
export function hoverKind(code: string): string | undefined {
  const first = code.split("\n")[0]?.trim() ?? "";
  const paren = /^\(([\w ]+)\)/.exec(first);
  if (paren) return paren[1];
  const word = /^(?:export\s+|declare\s+|async\s+)*(\w+)/.exec(first)?.[1];
  return word && HOVER_KINDS.has(word) ? (word === "def" ? "function" : word) : undefined;
}

/** The text of a documentation field: a string or a MarkupContent's value, trimmed. */
export function docText(doc: unknown): string {
  if (typeof doc === "string") return doc.trim();
  if (doc && typeof doc === "object" && typeof (doc as { value?: unknown }).value === "string") {
    return (doc as { value: string }).value.trim();
  }
  return "";
}
