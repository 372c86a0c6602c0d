// What a tool call (or a permission request) carries: content blocks, diffs and terminals, each in its view.
import type { ToolCallContentItem } from '../../../src/shared/transcript';
import { Collapsible } from './Collapsible';
import { useStore } from './storeHooks';
import { ContentBlock } from './ContentBlock';
import { DiffPreview } from './DiffPreview';
import { TerminalOutput } from './TerminalOutput';

export function ToolContent({
  content,
  sessionId,
  toolCallId,
  idBase,
  ownOutput = false,
  openRequest,
}: {
  content: ToolCallContentItem[];
  sessionId: string;
  toolCallId?: string;
  idBase: string;
  /** A new value opens the resources' contents (find revealing a match in them). */
  openRequest?: object;
  /** The tool call carries its own output: a terminal the client never created (the agent's own shell) shows that instead. */
  ownOutput?: boolean;
}) {
  const store = useStore();
  return (
    <>
      {content.map((c, i) => {
        switch (c.type) {
          case 'content':
            return <ContentBlock key={i} block={c.content} idBase={`${idBase}-${i}`} openRequest={openRequest} />;
          case 'diff':
            return <DiffPreview key={i} item={c} sessionId={sessionId} toolCallId={toolCallId} />;
          case 'terminal':
            return ownOutput && !store.state.terminals.has(c.terminalId) ? null : <TerminalOutput key={i} terminalId={c.terminalId} sessionId={sessionId} />;
          default:
            return (
              <Collapsible key={i} id={`${idBase}-${i}`} label="Unsupported tool content">
                {() => <pre class="raw-json">{JSON.stringify(c.raw, null, 2)}</pre>}
              </Collapsible>
            );
        }
      })}
    </>
  );
}
