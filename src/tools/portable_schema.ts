/**
 * Portable tool schemas. zod writes a nullable parameter as `type: ["string", "null"]`: legal
 * JSON Schema, but clients that map tool schemas onto a single-`type` dialect (Gemini's function
 * declarations) reject it, and the MCP Inspector's strict check warns. Here every such node
 * becomes `anyOf` of single-typed branches, each branch taking the keywords that belong to its
 * type; the node keeps what describes the whole (description, default, title).
 * @module
 */

/** Keywords that constrain one JSON type, which move into that type's branch. */
const KEYWORDS_OF: Readonly<Record<string, readonly string[]>> = {
  string: ["minLength", "maxLength", "pattern", "format"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"],
  object: ["properties", "required", "additionalProperties", "patternProperties"],
};

/** Rewrite, in place, every multi-typed node under `node` as `anyOf` single-typed branches. */
export function splitMultiTypes(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(splitMultiTypes);
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  const type = record.type;
  if (Array.isArray(type)) {
    const types = type as string[];
    const branches = types.map((t) => {
      const branch: Record<string, unknown> = { type: t };
      for (const key of KEYWORDS_OF[t] ?? []) {
        if (key in record) branch[key] = record[key];
      }
      return branch;
    });
    for (const t of types) for (const key of KEYWORDS_OF[t] ?? []) delete record[key];
    delete record.type;
    // A single entry needs no anyOf.
    if (branches.length === 1) Object.assign(record, branches[0]);
    else record.anyOf = [...(Array.isArray(record.anyOf) ? record.anyOf : []), ...branches];
  }
  Object.values(record).forEach(splitMultiTypes);
}

/**
 * Where `schema` is not portable: every property (at any depth) needs exactly one JSON `type`,
 * or `anyOf` whose branches each have one. Returns the paths that fail (empty when portable).
 */
export function nonPortablePaths(schema: unknown, path = "inputSchema"): string[] {
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  const anyOf = node.anyOf as unknown[] | undefined;
  const single = typeof node.type === "string" ||
    (Array.isArray(anyOf) && anyOf.length > 0 &&
      anyOf.every((b) => typeof (b as Record<string, unknown>)?.type === "string"));
  if (!single) found.push(path);
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  for (const [name, sub] of Object.entries(properties)) {
    found.push(...nonPortablePaths(sub, `${path}.properties.${name}`));
  }
  if (node.items) found.push(...nonPortablePaths(node.items, `${path}.items`));
  anyOf?.forEach((b, i) => found.push(...nonPortablePaths(b, `${path}.anyOf[${i}]`)));
  return found;
}
