// Params of the requests an agent sends to the client. Validated before any handler
// runs; a failure answers -32602 with the issues. Objects are loose: fields newer than
// this client are passed through to the handler rather than stripped.
import * as z from '../../shared/zod';

const sessionScoped = { sessionId: z.string() };

export const PermissionOptionSchema = z.looseObject({ optionId: z.string(), name: z.string(), kind: z.string() });

export const RequestPermissionParamsSchema = z.looseObject({
  ...sessionScoped,
  /** A tool_call_update: run it through the reducer's tool-call merge to display it. */
  toolCall: z.looseObject({ toolCallId: z.string() }),
  options: z.array(PermissionOptionSchema),
});

export const ReadTextFileParamsSchema = z.looseObject({
  ...sessionScoped,
  path: z.string(),
  line: z.nullish(z.int().check(z.minimum(0))),
  limit: z.nullish(z.int().check(z.minimum(0))),
});

export const WriteTextFileParamsSchema = z.looseObject({ ...sessionScoped, path: z.string(), content: z.string() });

const EnvVariableSchema = z.looseObject({ name: z.string(), value: z.string() });

export const CreateTerminalParamsSchema = z.looseObject({
  ...sessionScoped,
  command: z.string(),
  args: z.optional(z.array(z.string())),
  env: z.optional(z.array(EnvVariableSchema)),
  cwd: z.nullish(z.string()),
  outputByteLimit: z.nullish(z.int().check(z.minimum(0))),
});

export const TerminalParamsSchema = z.looseObject({ ...sessionScoped, terminalId: z.string() });

export const CreateElicitationParamsSchema = z
  .looseObject({
    message: z.string(),
    mode: z.string(),
    sessionId: z.optional(z.string()),
    requestId: z.optional(z.union([z.string(), z.number(), z.null()])),
    toolCallId: z.nullish(z.string()),
    requestedSchema: z.optional(z.record(z.string(), z.unknown())),
    elicitationId: z.optional(z.string()),
    url: z.optional(z.string()),
  })
  .check(
    z.refine((p) => p.sessionId !== undefined || p.requestId !== undefined, { message: 'elicitation needs a sessionId or a requestId scope' }),
    z.refine((p) => p.mode !== 'form' || p.requestedSchema !== undefined, { message: 'form elicitation needs requestedSchema' }),
    z.refine((p) => p.mode !== 'url' || (p.url !== undefined && p.elicitationId !== undefined), { message: 'url elicitation needs url and elicitationId' }),
  );

export const CompleteElicitationParamsSchema = z.looseObject({ elicitationId: z.string() });

export type RequestPermissionParams = z.output<typeof RequestPermissionParamsSchema>;
export type ReadTextFileParams = z.output<typeof ReadTextFileParamsSchema>;
export type WriteTextFileParams = z.output<typeof WriteTextFileParamsSchema>;
export type CreateTerminalParams = z.output<typeof CreateTerminalParamsSchema>;
export type TerminalParams = z.output<typeof TerminalParamsSchema>;
export type CreateElicitationParams = z.output<typeof CreateElicitationParamsSchema>;
export type CompleteElicitationParams = z.output<typeof CompleteElicitationParamsSchema>;
