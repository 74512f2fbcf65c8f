// Case-insensitive regex filters, as typed in a filter box.

/**
 * Compile a filter; `{re: null}` for an empty text, `{error}` for an invalid one (never throws).
 * @param {string} text
 * @returns {{re: RegExp | null, error: string | null}}
 */
export function compileFilter(text) {
  if (!text) return { re: null, error: null };
  try {
    return { re: new RegExp(text, "i"), error: null };
  } catch (err) {
    return { re: null, error: String(err instanceof Error ? err.message : err) };
  }
}

/**
 * Whether `name` passes the compiled filter (`null` passes everything).
 * @param {RegExp | null} re
 * @param {string} name
 */
export function matches(re, name) {
  return re === null || re.test(name);
}
