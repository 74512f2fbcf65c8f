// CSV text and its download.
//
// Spreadsheets run a cell as a formula when, after the blanks and invisible characters
// they skip, it starts with =, +, - or @ (or their fullwidth and small forms, ＝ among
// them), and treat a cell starting with a tab, carriage return or line feed as one too
// ("CSV injection"): such text cells (a run named "=HYPERLINK(...)", " =1+1") get a
// leading apostrophe, which spreadsheets show as text. Numbers are written as numbers
// (-0.5 stays -0.5): only strings are data from logs. Python's exports apply the same
// rule with the same character classes (tbnb/io/safe_text.py; tests/io/test_safe_text.py
// runs both on the same cells).

/** Characters a spreadsheet may skip before a formula: blanks, controls, invisibles. */
const SKIPPED =
  "\\u0000-\\u0020\\u007f-\\u00a0\\u00ad\\u034f\\u061c\\u115f\\u1160\\u1680\\u17b4\\u17b5\\u180b-\\u180f" +
  "\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3000\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0";
/** Characters that start a formula: equals, plus, minus, at sign; fullwidth and small forms. */
const FORMULA = "=+\\-@\\uff1d\\uff0b\\uff0d\\uff20\\ufe66\\ufe62\\ufe63\\ufe6b";
const FORMULA_START = new RegExp(`^(?:[\\t\\r\\n]|[${SKIPPED}]*[${FORMULA}])`, "u");

/**
 * `text` with a leading apostrophe when a spreadsheet would read it as a formula.
 * @param {string} text
 * @returns {string}
 */
export function neutraliseCell(text) {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * One CSV cell: numbers as numbers (non-finite as nan/inf/-inf), text neutralised against
 * formulas, then quoted per RFC 4180 when it holds a comma, quote or line break.
 * @param {unknown} value
 * @returns {string}
 */
export function csvCell(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (Number.isFinite(value)) return String(value);
    return Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
  }
  if (typeof value === "bigint" || typeof value === "boolean") return String(value);
  const s = neutraliseCell(String(value));
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * CSV text from a header and rows of values.
 * @param {unknown[]} header
 * @param {Iterable<unknown[]>} rows
 * @returns {string}
 */
export function toCSV(header, rows) {
  const lines = [header.map(csvCell).join(",")];
  for (const row of rows) lines.push(row.map(csvCell).join(","));
  return `${lines.join("\n")}\n`;
}

/**
 * Offer `text` as a file download (a blob: link clicked once, then revoked).
 * @param {HTMLElement} parent  where the temporary link lives
 * @param {string} filename
 * @param {string} text
 */
export function downloadText(parent, filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  parent.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
