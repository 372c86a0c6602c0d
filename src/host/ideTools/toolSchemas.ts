// The IDE tools' contract: each tool's name, description, input and output schema (zod, which the MCP SDK
// turns into the JSON schemas agents see, and checks arguments and results against). Pure: no `vscode`.
// Lines and characters are 1-based, like the line numbers agents read in files.
import * as z from '../../shared/zod';

const MAX_PATH = 4096;

const path = z.string().check(z.minLength(1), z.maxLength(MAX_PATH));
const absolutePath = path.check(z.describe('Absolute path of a file inside the session\'s folders'));
const position = z.object({ line: z.int().check(z.positive()), character: z.int().check(z.positive()) });
const range = z.object({ start: position, end: position });
const at = {
  path: absolutePath,
  line: z.int().check(z.positive(), z.maximum(10_000_000), z.describe('1-based line')),
  character: z.int().check(z.positive(), z.maximum(1_000_000), z.describe('1-based character in the line')),
};
const location = z.object({ path, range });

/** Said when a list was cut to fit the result budget. */
const truncated = z.optional(z.string());
/** How many answers were left out because they lie outside the session's folders. */
const outsideFolders = z.optional(z.int().check(z.nonnegative()));

export const TOOLS = {
  diagnostics: {
    description:
      "Problems (errors, warnings, hints) VS Code's language extensions report for a file, or for every file of the session's folders when no path is given. Includes unsaved changes. Some language extensions check only files open in editor tabs: `note` says when the file is not.",
    input: { path: z.optional(absolutePath) },
    output: {
      diagnostics: z.array(
        z.object({
          path,
          range,
          severity: z.enum(['error', 'warning', 'information', 'hint']),
          message: z.string(),
          source: z.optional(z.string()),
          code: z.optional(z.string()),
        }),
      ),
      note: z.optional(z.string()),
      truncated,
    },
  },
  document_symbols: {
    description: 'The symbols (classes, functions, variables, ...) VS Code knows in a file, each with its container and range.',
    input: { path: absolutePath },
    output: {
      symbols: z.array(z.object({ name: z.string(), kind: z.string(), detail: z.optional(z.string()), container: z.optional(z.string()), range })),
      truncated,
    },
  },
  workspace_symbols: {
    description: "Symbols matching a query across the session's folders, from VS Code's workspace symbol providers.",
    input: { query: z.string().check(z.maxLength(200), z.describe('Name or part of a name; empty lists what the providers offer')) },
    output: {
      symbols: z.array(z.object({ name: z.string(), kind: z.string(), container: z.optional(z.string()), path, range })),
      outsideFolders,
      truncated,
    },
  },
  definition: {
    description: 'Where the symbol at a position is defined, from VS Code\'s definition providers.',
    input: at,
    output: { locations: z.array(location), outsideFolders, truncated },
  },
  references: {
    description: 'Every reference to the symbol at a position, from VS Code\'s reference providers.',
    input: { ...at, includeDeclaration: z.optional(z.boolean()) },
    output: { locations: z.array(location), outsideFolders, truncated },
  },
  hover: {
    description: 'The hover text (type information, documentation) VS Code shows for the symbol at a position, as Markdown.',
    input: at,
    output: { contents: z.array(z.string()), range: z.optional(range), truncated },
  },
  open_editors: {
    description: "The files open in VS Code's editor tabs in the session's folders, with unsaved (dirty) state and which is active.",
    input: {},
    output: {
      editors: z.array(z.object({ path, languageId: z.optional(z.string()), dirty: z.boolean(), active: z.boolean(), group: z.int() })),
      outsideFolders,
      truncated,
    },
  },
  selection: {
    description: "The active editor's file and selections (with their text, unsaved changes included), when it is a file of the session's folders.",
    input: {},
    output: {
      path: z.optional(path),
      languageId: z.optional(z.string()),
      selections: z.array(z.object({ range, text: z.string() })),
      message: z.optional(z.string()),
      truncated,
    },
  },
} as const;

export type ToolName = keyof typeof TOOLS;
export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];

type Shape = Record<string, z.ZodMiniType>;
type Out<S extends Shape> = z.output<z.ZodMiniObject<S>>;
export type ToolInput<K extends ToolName> = Out<(typeof TOOLS)[K]['input']>;
export type ToolOutput<K extends ToolName> = Out<(typeof TOOLS)[K]['output']>;
export type Position = z.output<typeof position>;
export type Range = z.output<typeof range>;
export type Location = z.output<typeof location>;

/** What answers the tools for one session (VS Code in the extension host; a stand-in in unit tests). */
export interface IdeToolsBackend {
  call<K extends ToolName>(name: K, args: ToolInput<K>): Promise<ToolOutput<K>>;
}
