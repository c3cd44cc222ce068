/**
 * Server settings: answers to `workspace/configuration` come from one settings object, looked up
 * by dotted section name the way VS Code does ("python.analysis" → settings.python.analysis).
 * @module
 */

/** The value at a dotted `section` of `settings`; the whole object when no section is given. */
export function lookupSection(settings: unknown, section: string | undefined): unknown {
  if (!section) return settings ?? null;
  let value: unknown = settings;
  for (const key of section.split(".")) {
    if (typeof value !== "object" || value === null || !(key in value)) {
      // A flat key such as "python.analysis.typeCheckingMode" stored as one property.
      return flatLookup(settings, section);
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function flatLookup(settings: unknown, section: string): unknown {
  if (typeof settings !== "object" || settings === null) return undefined;
  const record = settings as Record<string, unknown>;
  if (section in record) return record[section];
  // Collect "section.x" keys into an object, e.g. "python.analysis.x" for section "python".
  const prefix = section + ".";
  const collected: Record<string, unknown> = {};
  let found = false;
  for (const [key, value] of Object.entries(record)) {
    if (key.startsWith(prefix)) {
      collected[key.slice(prefix.length)] = value;
      found = true;
    }
  }
  return found ? collected : undefined;
}

/** Deep-merge plain objects (arrays and scalars of `over` replace those of `base`). */
export function mergeSettings(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) result[key] = mergeSettings(base[key], value);
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
