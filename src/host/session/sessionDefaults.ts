// The mode, model and config options a session starts with, from the agent's settings entry (applied after
// session/new). One that fails is said in the session's transcript and the log; the others still apply.
import { errorMessage, type LoadSessionResult } from '../../acp';
import type { ResolvedAgentDefinition } from '../../agents';
import type { Session } from './session';

export async function applySessionDefaults(session: Session, definition: ResolvedAgentDefinition, setup: LoadSessionResult, log: { warn(message: string): void }): Promise<void> {
  const tryIt = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      const message = `Could not apply ${what} from switchboard.agents["${definition.name}"]: ${errorMessage(error)}`;
      log.warn(message);
      session.recordError(message);
    }
  };
  const { defaultMode, defaultModel } = definition;
  if (defaultMode && setup.modes?.currentModeId !== defaultMode) await tryIt(`defaultMode "${defaultMode}"`, () => session.setMode(defaultMode));
  if (defaultModel) {
    const modelOption = session.transcript.configOptions.find((o) => o.category === 'model' && o.kind === 'select');
    if (modelOption) {
      if (modelOption.currentValue !== defaultModel) await tryIt(`defaultModel "${defaultModel}"`, () => session.setConfigOption(modelOption.id, defaultModel));
    } else if (setup.models && setup.models.currentModelId !== defaultModel) {
      await tryIt(`defaultModel "${defaultModel}"`, () => session.setModel(defaultModel));
    }
  }
  for (const [id, value] of Object.entries(definition.defaultConfigOptions ?? {})) {
    await tryIt(`config option "${id}"`, () => session.setConfigOption(id, value));
  }
}
