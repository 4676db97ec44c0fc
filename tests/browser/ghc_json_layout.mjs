// Checks that files have the layout of GHC's JSON profile (+RTS -pj): the
// same top-level fields, in the same order and of the same JSON types, as
// a reference written by GHC; the same fields for every cost centre and
// every node of the call tree (walked without recursion); every node's id
// a declared cost centre.
// Usage: node ghc_json_layout.mjs REFERENCE.json FILE...
import { readFileSync } from "node:fs";

const kind = (v) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);
const shape = (o) => Object.keys(o).map((k) => `${k}:${kind(o[k])}`).join(",");
const ref = JSON.parse(readFileSync(process.argv[2], "utf8"));
const refTop = shape(ref);
const refCc = shape(ref.cost_centres[0]);
const refNode = shape(ref.profile);
let failed = 0;
for (const file of process.argv.slice(3)) {
  const problems = [];
  let data;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    problems.push(`not JSON: ${e.message}`);
  }
  if (data) {
    if (shape(data) !== refTop) problems.push(`top level ${shape(data)}, GHC's ${refTop}`);
    const ids = new Set();
    for (const cc of data.cost_centres || []) {
      if (shape(cc) !== refCc) problems.push(`cost centre ${shape(cc)}, GHC's ${refCc}`);
      ids.add(cc.id);
    }
    const stack = data.profile ? [data.profile] : [];
    let nodes = 0;
    while (stack.length && problems.length < 5) {
      const n = stack.pop();
      nodes++;
      if (shape(n) !== refNode) problems.push(`node ${shape(n)}, GHC's ${refNode}`);
      if (!ids.has(n.id)) problems.push(`node of undeclared cost centre ${n.id}`);
      for (const c of n.children || []) stack.push(c);
    }
    if (nodes === 0) problems.push("no call tree");
  }
  if (problems.length) {
    failed++;
    console.log(`bad ${file}: ${problems.slice(0, 5).join("; ")}`);
  } else {
    console.log(`ok ${file}`);
  }
}
process.exit(failed ? 1 : 0);
