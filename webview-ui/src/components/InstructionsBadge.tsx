// The session header's word on the standing instructions: that they apply (and from where), that this
// agent does not take them, or what could not be used.
import type { InstructionsView } from '../../../src/shared/chatState';
import { Icon } from './Icon';

export function instructionsSummary(v: InstructionsView, agentName: string): string {
  const from = v.sources.length > 0 ? ` from ${v.sources.join(', ')}` : '';
  const main = v.sent
    ? `Your standing instructions${from} apply to this session.`
    : !v.supported && v.sources.length > 0
      ? `${agentName} does not take standing instructions: yours${from} were not sent.`
      : 'No standing instructions were sent.';
  return [main, ...v.problems].join(' ');
}

export function InstructionsBadge({ view, agentName }: { view: InstructionsView; agentName: string }) {
  const summary = instructionsSummary(view, agentName);
  const warn = !view.sent || view.problems.length > 0;
  return (
    <span class={`instructions-badge${warn ? ' warning' : ''}`} role="note" aria-label={summary} title={summary}>
      <Icon name={warn ? 'warning' : 'book'} />
      {view.sent ? 'Instructions' : 'Instructions not sent'}
    </span>
  );
}
