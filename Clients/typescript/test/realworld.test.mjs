// The real-world AASA files in ../shared/realworld (beside the repository; never copied into it): the invalid
// ones (a trailing comma makes iOS ignore the whole file) are refused saying where and what; the valid ones parse
// exactly as JSON.parse reads them. Skipped, saying so, when the folder is absent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AASASyntaxError, evaluate, parseAASA } from "../dist/esm/index.js";
import { repoDir } from "./support/paths.mjs";

const realworld = path.resolve(repoDir, "..", "shared", "realworld");
const skip = existsSync(path.join(realworld, "aasa")) ? false : "skipped: ../shared/realworld is absent";
const files = (folder) =>
  skip ? [] : readdirSync(path.join(realworld, folder)).filter((name) => name.endsWith(".json")).sort()
    .map((name) => path.join(realworld, folder, name));

test("invalid real-world AASA files are refused saying where and what", { skip }, () => {
  const invalid = files("aasa-invalid");
  assert.ok(invalid.length > 0);
  for (const file of invalid) {
    const bytes = readFileSync(file);
    assert.throws(() => parseAASA(bytes.toString("utf8")), (error) => {
      assert.ok(error instanceof AASASyntaxError, `${file}: ${error}`);
      assert.match(error.message, /^not valid JSON: line \d+, column \d+ \(byte \d+\): trailing comma before/);
      // The byte offset points at the comma itself.
      assert.equal(bytes[error.offset], ",".charCodeAt(0), `${file}: ${error.message}`);
      return true;
    });
  }
});

test("valid real-world AASA files parse as JSON.parse reads them and evaluate", { skip }, () => {
  const valid = files("aasa");
  assert.ok(valid.length > 0);
  for (const file of valid) {
    const text = readFileSync(file, "utf8");
    const document = parseAASA(text);
    assert.deepEqual(document, JSON.parse(text.replace(/^\ufeff/, "")), file);
    const outcome = evaluate(document, "ABCDE12345.com.example.app", "https://example.com/x", "example.com");
    assert.equal(outcome, "no_match", file);
  }
});

test("strict parsing says where and what", () => {
  for (const [text, message] of [
    ['{"a": 1,}', "line 1, column 8 (byte 7): trailing comma before '}'"],
    ["[1,\n 2,\n]", "line 2, column 3 (byte 6): trailing comma before ']'"],
    ["[NaN]", "line 1, column 2 (byte 1): expected a JSON value, found 'N'"],
    ['["é", tru]', "line 1, column 7 (byte 7): expected 'true'"],
    ["// c\n{}", "line 1, column 1 (byte 0): expected a JSON value, found '/'"],
  ]) {
    assert.throws(() => parseAASA(text), (error) => error instanceof AASASyntaxError && error.message.includes(message));
  }
  assert.deepEqual(parseAASA('\ufeff{"a": [1, "\\/"]}'), { a: [1, "/"] });
});
