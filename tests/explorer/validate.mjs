// Validates JSON traces (`stg-run --trace=json`) against the JSON Schema
// of docs/TRACE-FORMAT.md, and the order the format promises: a header,
// a start record, steps numbered 1, 2, ... (with the printer's demands
// between them), an end record last.
//
//   node validate.mjs SCHEMA TRACE...
//
// Prints one line per trace and exits 1 if any is invalid.
import { readFileSync } from "node:fs";
import Ajv from "ajv";

const [schemaPath, ...traces] = process.argv.slice(2);
if (!schemaPath || traces.length === 0) {
  console.error("usage: node validate.mjs SCHEMA TRACE...");
  process.exit(2);
}
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const ajv = new Ajv({ strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true });
ajv.addSchema(schema, "trace");
const line = ajv.getSchema("trace");
const header = ajv.compile({ $ref: "trace#/definitions/header" });
const record = ajv.compile({ $ref: "trace#/definitions/record" });

let bad = 0;
for (const path of traces) {
  const lines = readFileSync(path, "utf8").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const fail = (i, what) => {
    console.log(`${path}:${i + 1}: ${what}`);
    bad++;
  };
  let ok = true;
  let step = 0;
  for (let i = 0; i < lines.length && ok; i++) {
    let json;
    try {
      json = JSON.parse(lines[i]);
    } catch (e) {
      fail(i, `not JSON: ${e.message}`);
      ok = false;
      break;
    }
    const check = i === 0 ? header : record;
    if (!line(json) || !check(json)) {
      const errors = check.errors || line.errors;
      fail(i, `invalid: ${ajv.errorsText(errors)}`);
      ok = false;
      break;
    }
    if (i === 0) continue;
    const first = i === 1;
    const last = i === lines.length - 1;
    if (first !== (json.event === "start")) {
      fail(i, `a start record must be first and only first, not ${json.event}`);
      ok = false;
    } else if (last !== (json.event === "end")) {
      fail(i, `an end record must be last and only last, not ${json.event}`);
      ok = false;
    } else if (json.event === "step") {
      if (json.step !== step + 1) {
        fail(i, `step ${json.step} after step ${step}`);
        ok = false;
      }
      step = json.step;
    } else if (json.step !== step) {
      fail(i, `a ${json.event} record at step ${json.step}, after step ${step}`);
      ok = false;
    }
  }
  if (lines.length < 3) {
    fail(0, "a trace has a header, a start record and an end record at least");
    ok = false;
  }
  if (ok) console.log(`${path}: ${lines.length} lines valid`);
}
process.exit(bad === 0 ? 0 : 1);
