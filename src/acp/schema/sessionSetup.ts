// Modes, config options and the legacy model list: they arrive in session/new|load|resume
// responses and in updates, and are parsed straight into the transcript's shapes.
import * as z from '../../shared/zod';
import type { ConfigOption, ConfigSelectValue, LegacyModels, SessionMode } from '../../shared/transcript';
import { lenientArray, optional } from './lenient';

const SessionModeSchema = z.pipe(
  z.object({ id: z.string(), name: z.string(), description: optional(z.string()) }),
  z.transform((m): SessionMode => (m.description === undefined ? { id: m.id, name: m.name } : m as SessionMode)),
);

export const SessionModeStateSchema = z.object({
  currentModeId: z.string(),
  availableModes: lenientArray(SessionModeSchema),
});

const SelectOptionSchema = z.object({ value: z.string(), name: z.string(), description: optional(z.string()) });
const SelectGroupSchema = z.object({ group: z.string(), name: z.string(), options: lenientArray(SelectOptionSchema) });

const SelectOptionsSchema = z.pipe(
  z.array(z.unknown()),
  z.transform((entries): ConfigSelectValue[] => {
    const values: ConfigSelectValue[] = [];
    for (const entry of entries) {
      const option = SelectOptionSchema.safeParse(entry);
      if (option.success) {
        values.push(withoutUndefined(option.data));
        continue;
      }
      const group = SelectGroupSchema.safeParse(entry);
      if (group.success) {
        for (const o of group.data.options) values.push(withoutUndefined({ ...o, group: group.data.name }));
      }
    }
    return values;
  }),
);

const ConfigOptionBase = {
  id: z.string(),
  name: z.string(),
  description: optional(z.string()),
  category: optional(z.string()),
};

export const ConfigOptionSchema: z.ZodMiniType<ConfigOption> = z.pipe(
  z.discriminatedUnion('type', [
    z.object({ ...ConfigOptionBase, type: z.literal('select'), currentValue: z.string(), options: SelectOptionsSchema }),
    z.object({ ...ConfigOptionBase, type: z.literal('boolean'), currentValue: z.boolean() }),
  ]),
  z.transform((o): ConfigOption => {
    const { type, ...rest } = o;
    return withoutUndefined({ kind: type, ...rest }) as ConfigOption;
  }),
) as z.ZodMiniType<ConfigOption>;

/** Unknown option types are skipped: there is no picker to show them in. */
export const ConfigOptionsSchema = lenientArray(ConfigOptionSchema);

export const LegacyModelsSchema: z.ZodMiniType<LegacyModels> = z.object({
  currentModelId: z.string(),
  availableModels: lenientArray(
    z.pipe(
      z.object({ modelId: z.string(), name: z.string(), description: optional(z.string()) }),
      z.transform((m) => withoutUndefined(m)),
    ),
  ),
}) as z.ZodMiniType<LegacyModels>;

/** Fields common to session/new, session/load and session/resume results. */
export const SessionSetupFields = {
  modes: optional(SessionModeStateSchema),
  configOptions: optional(ConfigOptionsSchema),
  /** Legacy, pre config-options: still sent by real agents. */
  models: optional(LegacyModelsSchema),
};

export function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}
