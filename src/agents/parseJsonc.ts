import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/*
 * Zed's settings.json, VS Code's settings.json and mcp.json, and many hand-edited acp.json files are
 * JSONC: // and block comments and trailing commas. `jsonc-parser` (VS Code's own parser) reads them;
 * this wrapper turns its error codes into a sentence that says where the file is wrong and how.
 */

export type JsoncParseResult = { ok: true; value: unknown } | { ok: false; message: string };

/** What each error code means, phrased for the person who has to fix the file. */
const PROBLEMS: Readonly<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidSymbol: 'unexpected text',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a colon was expected',
  CommaExpected: 'a comma was expected',
  CloseBraceExpected: 'a closing "}" was expected',
  CloseBracketExpected: 'a closing "]" was expected',
  EndOfFileExpected: 'the file should end here',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'a /* comment is never closed',
  UnexpectedEndOfString: 'a string is never closed',
  UnexpectedEndOfNumber: 'a number is cut off',
  InvalidUnicode: 'invalid \\u escape in a string',
  InvalidEscapeCharacter: 'invalid escape in a string',
  InvalidCharacter: 'a line break or control character inside a string must be escaped',
  '<unknown ParseErrorCode>': 'invalid JSON',
};

/** Parses JSONC; any syntax error makes the whole text invalid (no half-read values). Never throws. */
export function parseJsonc(text: string): JsoncParseResult {
  // A BOM is kept as a space so that reported columns match what an editor shows.
  const source = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  if (source.trim() === '') return { ok: false, message: 'the file is empty' };
  const errors: ParseError[] = [];
  const value: unknown = parse(source, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (errors.length === 0) return { ok: true, value };
  const more = errors.length > 1 ? `; ${errors.length - 1} more ${errors.length === 2 ? 'problem' : 'problems'} after it` : '';
  return { ok: false, message: `${describeError(source, errors[0])}${more}` };
}

function describeError(text: string, error: ParseError): string {
  let problem = PROBLEMS[printParseErrorCode(error.error)];
  if (problem === PROBLEMS.InvalidSymbol) {
    const found = text.slice(error.offset, error.offset + Math.min(error.length, 20));
    problem = `unexpected ${JSON.stringify(found)}${error.length > 20 ? '…' : ''}`;
  }
  const { line, column } = lineAndColumn(text, error.offset);
  const where = error.offset >= text.length ? `at the end of the file (line ${line}, column ${column})` : `at line ${line}, column ${column}`;
  return `${problem} ${where}`;
}

/** 1-based line and column of `offset` (\r\n, \n and a lone \r each end a line). */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
