// Validates speedscope files against the JSON schema the npm package
// `speedscope` ships (dist/release/file-format-schema.json), with ajv.
// Usage: node validate_speedscope.mjs FILE...
// Prints `ok FILE` or the schema's errors for each; exits 1 if any fails.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv";

const require = createRequire(import.meta.url);
const schemaPath = require.resolve("speedscope/dist/release/file-format-schema.json");
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);
let failed = 0;
for (const file of process.argv.slice(2)) {
  const data = JSON.parse(readFileSync(file, "utf8"));
  if (validate(data)) {
    console.log(`ok ${file}`);
  } else {
    failed++;
    console.log(`invalid ${file}: ${ajv.errorsText(validate.errors, { separator: "\n  " })}`);
  }
}
process.exit(failed ? 1 : 0);
