import assert from "node:assert/strict";
import { test } from "node:test";
import { csvCell, toCSV } from "../src/core/csv.js";

test("CSV quoting and non-finite values", () => {
  const text = toCSV(
    ["run", "value"],
    [
      ["a,b", Number.NaN],
      ['q"', Number.POSITIVE_INFINITY],
      ["c", 1.5],
    ],
  );
  assert.equal(text, 'run,value\n"a,b",nan\n"q""",inf\nc,1.5\n');
});

test("text cells that a spreadsheet would run as a formula are neutralised", () => {
  for (const evil of ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd", "=1"]) {
    const cell = csvCell(evil);
    const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
    assert.equal(unquoted, `'${evil}`, evil);
  }
  // the neutralised cell is still one field, quoted when it must be
  assert.equal(toCSV(["run"], [["=a,b"]]), 'run\n"\'=a,b"\n');
  assert.equal(toCSV(["h"], [["\rx"]]), 'h\n"\'\rx"\n');
});

test("numbers stay numbers, negative ones included; ordinary text is untouched", () => {
  assert.equal(csvCell(-0.5), "-0.5");
  assert.equal(csvCell(-3), "-3");
  assert.equal(csvCell(Number.NEGATIVE_INFINITY), "-inf");
  assert.equal(csvCell("lr=0.1,seed=0"), '"lr=0.1,seed=0"');
  assert.equal(csvCell("a=b"), "a=b");
  assert.equal(csvCell(null), "");
  assert.equal(csvCell(true), "true");
});
