// CSV text and its download.
//
// Spreadsheets run a cell that starts with =, +, -, @, a tab or a carriage return as a
// formula ("CSV injection"): such text cells (a run named "=HYPERLINK(...)") get a leading
// apostrophe, which spreadsheets show as text. Numbers are written as numbers (-0.5 stays
// -0.5): only strings are data from logs.

const FORMULA_START = /^[=+\-@\t\r]/;

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
  let s = String(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
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
