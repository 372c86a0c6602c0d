// Shared by the security host tests.
import * as fs from 'fs';

/** Keeps a workspace file's content and puts it back (or removes the file) after the tests. */
export function keepFile(file: string): () => void {
  const previous = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  return () => {
    if (previous === undefined) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, previous);
  };
}
