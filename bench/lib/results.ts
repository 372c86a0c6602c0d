// Writes a bench's report into its own section of bench/RESULTS.md (between `<!-- name:start -->` and
// `<!-- name:end -->`), leaving every other section as it was.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function writeResultsSection(name: string, section: string): void {
  const file = path.resolve(__dirname, '../../../bench/RESULTS.md');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${section.trimEnd()}\n${end}`;
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmark results\n';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  text = a !== -1 && b !== -1 ? text.slice(0, a) + block + text.slice(b + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, text);
}
