// RFC 7396 JSON Merge Patch, without touching either input.

/**
 * Applies `patch` to `target`: an object patch merges member by member (null removes a member,
 * objects merge recursively), anything else (arrays, scalars, null) replaces the target whole.
 * The result shares no objects or arrays with the inputs.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const result: Record<string, unknown> = {};
  if (isJsonObject(target)) {
    for (const [key, value] of Object.entries(target)) defineMember(result, key, cloneJson(value));
  }
  for (const [key, value] of Object.entries(patch)) {
    // undefined is not JSON: a member holding it is treated as absent from the patch.
    if (value === undefined) continue;
    if (value === null) delete result[key];
    else defineMember(result, key, applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isJsonObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) defineMember(copy, key, cloneJson(item));
    return copy;
  }
  return value;
}

/** Plain assignment of a member named "__proto__" would set the prototype instead of adding the member. */
function defineMember(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
