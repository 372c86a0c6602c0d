// Content blocks in order (a message's, a thought's, a summary's), each a ContentBlock with its own id.
import type { TranscriptContent } from '../../../src/shared/transcript';
import { ContentBlock } from './ContentBlock';

export function ContentList({
  content,
  idBase,
  streamOf,
  openRequest,
}: {
  content: TranscriptContent[];
  idBase: string;
  streamOf?: (contentIndex: number) => string;
  openRequest?: object;
}) {
  return (
    <>
      {content.map((c, i) => (
        <ContentBlock key={i} block={c} idBase={`${idBase}-${i}`} stream={streamOf?.(i)} openRequest={openRequest} />
      ))}
    </>
  );
}
