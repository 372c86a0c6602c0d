// The helpers ToolCall.tsx and Transcript.tsx still import from here; every other component imports each
// from its own file.
export { basename } from './format';
export { Collapsible } from './Collapsible';
export { Icon } from './Icon';
export { memo } from './memo';
export { useStore, useStoreVersion } from './storeHooks';
