// Params of the requests an agent sends to the client. Validated before any handler
// runs; a failure answers -32602 with the issues. Objects are loose: fields newer than
// this client are passed through to the handler rather than stripped.
import { z } from 'zod';

const sessionScoped = { sessionId: z.string() };

export const PermissionOptionSchema = z
  .object({ optionId: z.string(), name: z.string(), kind: z.string() })
  .loose();

export const RequestPermissionParamsSchema = z
  .object({
    ...sessionScoped,
    /** A tool_call_update: run it through the reducer's tool-call merge to display it. */
    toolCall: z.object({ toolCallId: z.string() }).loose(),
    options: z.array(PermissionOptionSchema),
  })
  .loose();

export const ReadTextFileParamsSchema = z
  .object({
    ...sessionScoped,
    path: z.string(),
    line: z.number().int().min(0).nullish(),
    limit: z.number().int().min(0).nullish(),
  })
  .loose();

export const WriteTextFileParamsSchema = z.object({ ...sessionScoped, path: z.string(), content: z.string() }).loose();

const EnvVariableSchema = z.object({ name: z.string(), value: z.string() }).loose();

export const CreateTerminalParamsSchema = z
  .object({
    ...sessionScoped,
    command: z.string(),
    args: z.array(z.string()).optional(),
    env: z.array(EnvVariableSchema).optional(),
    cwd: z.string().nullish(),
    outputByteLimit: z.number().int().min(0).nullish(),
  })
  .loose();

export const TerminalParamsSchema = z.object({ ...sessionScoped, terminalId: z.string() }).loose();

export const CreateElicitationParamsSchema = z
  .object({
    message: z.string(),
    mode: z.string(),
    sessionId: z.string().optional(),
    requestId: z.union([z.string(), z.number(), z.null()]).optional(),
    toolCallId: z.string().nullish(),
    requestedSchema: z.record(z.string(), z.unknown()).optional(),
    elicitationId: z.string().optional(),
    url: z.string().optional(),
  })
  .loose()
  .refine((p) => p.sessionId !== undefined || p.requestId !== undefined, {
    message: 'elicitation needs a sessionId or a requestId scope',
  })
  .refine((p) => p.mode !== 'form' || p.requestedSchema !== undefined, { message: 'form elicitation needs requestedSchema' })
  .refine((p) => p.mode !== 'url' || (p.url !== undefined && p.elicitationId !== undefined), {
    message: 'url elicitation needs url and elicitationId',
  });

export const CompleteElicitationParamsSchema = z.object({ elicitationId: z.string() }).loose();

export type RequestPermissionParams = z.output<typeof RequestPermissionParamsSchema>;
export type ReadTextFileParams = z.output<typeof ReadTextFileParamsSchema>;
export type WriteTextFileParams = z.output<typeof WriteTextFileParamsSchema>;
export type CreateTerminalParams = z.output<typeof CreateTerminalParamsSchema>;
export type TerminalParams = z.output<typeof TerminalParamsSchema>;
export type CreateElicitationParams = z.output<typeof CreateElicitationParamsSchema>;
export type CompleteElicitationParams = z.output<typeof CompleteElicitationParamsSchema>;
